import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { freePort } from '../../src/lib/free-port.js';
import { cleanEnv, signalGroup, spawnProcess, waitForHttp } from '../helpers/process.js';

describe('npm start with no DATABASE_URL', () => {
  it('boots embedded PostgreSQL, answers health, prints a token, and shuts down cleanly', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'clinigate-start-'));
    const port = await freePort();
    const pgPort = await freePort();
    const proc = spawnProcess('npm', ['start'], cleanEnv({ PORT: String(port), DATA_DIR: dataDir, EMBEDDED_PG_PORT: String(pgPort) }));
    try {
      const exitedEarly = proc.exited.then((code) => {
        throw new Error(`npm start exited with ${code}:\n${proc.output()}`);
      });
      const res = await Promise.race([waitForHttp(`http://127.0.0.1:${port}/api/v1/health`, 90_000), exitedEarly]);
      expect(((await res.json()) as { status: string }).status).toBe('ok');
      expect(existsSync(join(dataDir, 'pg', 'PG_VERSION'))).toBe(true);
      const secrets = JSON.parse(readFileSync(join(dataDir, 'secrets.json'), 'utf8'));
      expect(secrets.JWT_SECRET).toEqual(expect.any(String));
      await expect.poll(() => proc.output(), { timeout: 10_000 }).toMatch(/Bearer token/);
      expect(proc.output()).toMatch(/curl -s -X POST/);

      // SIGTERM to the service's own pid, as a supervisor would send it.
      const pid = Number(/"message":"listening"[^\n]*"pid":(\d+)/.exec(proc.output())?.[1]);
      expect(pid).toBeGreaterThan(0);
      process.kill(pid, 'SIGTERM');
      await expect.poll(() => proc.output(), { timeout: 45_000 }).toMatch(/"message":"stopped"/);
      expect(existsSync(join(dataDir, 'pg', 'postmaster.pid'))).toBe(false);
    } catch (err) {
      throw new Error(`${(err as Error).message}\n--- service output ---\n${proc.output().slice(-4000)}`);
    } finally {
      signalGroup(proc.child, 'SIGKILL');
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 150_000);

  it('refuses to start in production without its secrets, in one line', async () => {
    const proc = spawnProcess(
      'node',
      ['--import', 'tsx', 'src/main.ts'],
      cleanEnv({ NODE_ENV: 'production', DATABASE_URL: 'postgres://x@127.0.0.1:1/x' }),
    );
    expect(await proc.exited).toBe(1);
    expect(proc.output().trim()).toBe('Invalid configuration: JWT_SECRET is required in production');
  }, 30_000);
});
