import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { freePort } from '../../src/lib/free-port.js';
import { cleanEnv, signalGroup, spawnProcess, waitForHttp } from '../helpers/process.js';
import { isolatedDatabase } from '../helpers/isolated-database.js';
import { testEnv } from '../helpers/test-app.js';

describe('clinigate serve', () => {
  it('starts the service in the role --role names (over ROLE), logs like npm start and stops on SIGTERM', async () => {
    const port = await freePort();
    const dataDir = mkdtempSync(join(tmpdir(), 'clinigate-cli-serve-'));
    // A database of its own: jobs other test files leave in the shared one would age its health into 'degraded'.
    const db = await isolatedDatabase('serve');
    const env = testEnv({ PORT: String(port), ROLE: 'worker', DATA_DIR: dataDir, LOG_LEVEL: 'info', DATABASE_URL: db.url });
    const proc = spawnProcess(
      'node',
      ['--import', 'tsx', 'src/cli/main.ts', 'serve', '--role', 'api'],
      cleanEnv(env as Record<string, string>),
    );
    try {
      const res = await waitForHttp(`http://127.0.0.1:${port}/api/v1/health`, 60_000);
      expect(((await res.json()) as { status: string }).status).toBe('ok');
      await expect.poll(() => proc.output(), { timeout: 10_000 }).toMatch(/"message":"listening"/);
      const listening = JSON.parse(
        proc
          .output()
          .split('\n')
          .find((l) => l.includes('"message":"listening"'))!,
      );
      expect(listening).toMatchObject({ port, role: 'api', pid: proc.child.pid });
      process.kill(proc.child.pid!, 'SIGTERM');
      expect(await proc.exited).toBe(0);
      expect(proc.output()).toMatch(/"message":"stopped"/);
    } catch (err) {
      throw new Error(`${(err as Error).message}\n--- output ---\n${proc.output().slice(-3000)}`);
    } finally {
      signalGroup(proc.child, 'SIGKILL');
      rmSync(dataDir, { recursive: true, force: true });
      await db.drop();
    }
  }, 90_000);
});
