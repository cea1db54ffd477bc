import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { freePort } from '../../src/lib/free-port.js';
import { cleanEnv, signalGroup, spawnProcess, type Spawned } from '../helpers/process.js';
import { cloneProject } from './clone.js';
import { createTranscription, devHeaders, transcriptionStatus, waitHealthy } from './service.js';

/** The embedded PostgreSQL port a service logged at start. */
function embeddedPort(proc: Spawned): number {
  return Number(/"message":"embedded PostgreSQL started","port":(\d+)/.exec(proc.output())?.[1]);
}

/**
 * Two clones of the project (two branches checked out) started at the same moment on one machine,
 * each with its own HTTP port and nothing else set: each gets an embedded PostgreSQL of its own on
 * a port it chose, keeps its data in its own folder, and remembers the port for the next start.
 * Started through tsx (the sources) to spare this shared machine two full builds; `npm start` runs
 * the same start-up (test/startup/embedded-start.test.ts, readme-tour.test.ts).
 */
describe('two clones side by side on embedded PostgreSQL', () => {
  it('both start at once, both healthy, each with its own cluster and port, neither sees the other', async () => {
    const parent = mkdtempSync(join(tmpdir(), 'clinigate-two-clones-'));
    const clones = [cloneProject(parent, 'branch-a'), cloneProject(parent, 'branch-b')];
    const ports = [await freePort(), await freePort()];
    const start = (i: number) => spawnProcess('node', ['--import', 'tsx', 'src/main.ts'], cleanEnv({ PORT: String(ports[i]) }), clones[i]);
    const procs = [start(0), start(1)];
    try {
      await Promise.all(procs.map((proc, i) => waitHealthy(proc, ports[i]!, 180_000)));
      const pgPorts = procs.map(embeddedPort);
      expect(pgPorts[0]).toBeGreaterThan(0);
      expect(pgPorts[1]).toBeGreaterThan(0);
      expect(pgPorts[0]).not.toBe(pgPorts[1]);
      for (const [i, clone] of clones.entries()) {
        expect(existsSync(join(clone, '.data', 'pg', 'PG_VERSION'))).toBe(true);
        expect(JSON.parse(readFileSync(join(clone, '.data', 'embedded-pg.json'), 'utf8'))).toEqual({ port: pgPorts[i] });
        expect(procs[i]!.output()).toContain(`Data:       ${join(clone, '.data', 'pg')}  (embedded PostgreSQL on 127.0.0.1:${pgPorts[i]};`);
      }
      // Each keeps its own data: a transcription made in one is not in the other.
      const headers = await Promise.all(clones.map((clone) => devHeaders(join(clone, '.data'))));
      const made = await createTranscription(ports[0]!, headers[0]!, 'made in clone a');
      expect(await transcriptionStatus(ports[0]!, headers[0]!, made)).toBe(200);
      expect(await transcriptionStatus(ports[1]!, headers[1]!, made)).toBe(404);
    } catch (err) {
      throw new Error(
        `${(err as Error).message}\n--- a ---\n${procs[0]!.output().slice(-3000)}\n--- b ---\n${procs[1]!.output().slice(-3000)}`,
      );
    } finally {
      for (const proc of procs) signalGroup(proc.child, 'SIGTERM');
      await Promise.all(procs.map((proc) => Promise.race([proc.exited, new Promise((resolve) => setTimeout(resolve, 30_000))])));
      for (const proc of procs) signalGroup(proc.child, 'SIGKILL');
      rmSync(parent, { recursive: true, force: true });
    }
  }, 300_000);
});
