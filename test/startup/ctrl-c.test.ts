import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { freePort } from '../../src/lib/free-port.js';
import { signalGroup } from '../helpers/process.js';
import {
  createTranscription,
  devHeaders,
  outputClosed,
  servicePid,
  spawnService,
  transcriptionStatus,
  troubleIn,
  waitHealthy,
} from './service.js';

/**
 * Ctrl-C in a terminal sends SIGINT to the whole foreground process group: npm and node at once
 * (the start script execs node, so no sh sits between them), and npm forwards it again. The
 * embedded PostgreSQL runs in a session of its own, so it keeps serving while the service stops in
 * order and is stopped last. npm exits with the service's code: 0.
 */
describe('Ctrl-C on npm start', () => {
  it('stops cleanly three times in a row, each start finding the data of the runs before', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'clinigate-ctrl-c-'));
    const port = await freePort();
    const pgPort = await freePort();
    const ids: string[] = [];
    try {
      for (let round = 1; round <= 3; round++) {
        const proc = spawnService({ port, pgPort, dataDir });
        try {
          await waitHealthy(proc, port);
          const nodePid = await servicePid(proc);
          const headers = await devHeaders(dataDir);
          for (const id of ids) expect(await transcriptionStatus(port, headers, id)).toBe(200);
          ids.push(await createTranscription(port, headers, `visit of round ${round}`));

          process.kill(-proc.child.pid!, 'SIGINT');
          await outputClosed(proc);
          await expect.poll(() => alive(nodePid), { timeout: 30_000 }).toBe(false);
          const output = proc.output();
          expect(output).toMatch(/"message":"shutting down","signal":"SIGINT"/);
          expect(output).toMatch(/"message":"stopped"/);
          expect(troubleIn(output)).toEqual([]);
          // npm forwards the signal and exits with the service's code (the start script execs node).
          expect(await proc.exited).toBe(0);
          expect(existsSync(join(dataDir, 'pg', 'postmaster.pid'))).toBe(false);
          expect(existsSync(join(dataDir, 'clinigate.pid'))).toBe(false);
        } catch (err) {
          const pgLog = join(dataDir, 'pg', 'postgres.log');
          const pgTail = existsSync(pgLog) ? readFileSync(pgLog, 'utf8').slice(-3000) : '(no postgres.log)';
          throw new Error(
            `round ${round}: ${(err as Error).message}\n--- output ---\n${proc.output().slice(-4000)}\n--- postgres.log ---\n${pgTail}`,
          );
        } finally {
          signalGroup(proc.child, 'SIGKILL');
        }
      }
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 240_000);
});

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
