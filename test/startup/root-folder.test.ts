import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { earlierClusters } from '../../src/db/earlier-cluster-homes.js';
import { freePort } from '../../src/lib/free-port.js';
import { REPO_ROOT, signalGroup } from '../helpers/process.js';
import { createTranscription, devHeaders, servicePid, spawnService, transcriptionStatus, troubleIn, waitHealthy } from './service.js';

const isRoot = process.getuid?.() === 0;
if (!isRoot) console.info('[skip] start-up from a 0700 folder: only meaningful as root (CI runs as root)');

/**
 * As root, initdb and postgres run as the OS user `postgres`, which cannot enter a folder closed
 * to others. A clone in such a folder (a mktemp -d, or /root) must still start with npm start and
 * keep its data across restarts, in the clone's own DATA_DIR/pg and nowhere else (so deleting
 * the clone deletes the patient data). The clone here is the repository's files in a fresh 0700 folder,
 * node_modules hard-linked (same files, no download) so the PostgreSQL binaries sit inside it too.
 */
describe.skipIf(!isRoot)('npm start as root in a folder only root can enter', () => {
  it('starts, keeps its data across a restart, in DATA_DIR/pg only', async () => {
    mkdirSync(join(REPO_ROOT, 'test-artifacts'), { recursive: true });
    const closed = mkdtempSync(join(REPO_ROOT, 'test-artifacts', 'root-only-'));
    expect(statSync(closed).mode & 0o777).toBe(0o700);
    const clone = join(closed, 'clinigate');
    mkdirSync(clone);
    for (const entry of [
      'package.json',
      'package-lock.json',
      'tsconfig.json',
      'tsconfig.build.json',
      'src',
      'config',
      'console',
      'migrations',
    ]) {
      cpSync(join(REPO_ROOT, entry), join(clone, entry), { recursive: true });
    }
    execFileSync('cp', ['-al', join(REPO_ROOT, 'node_modules'), join(clone, 'node_modules')]);
    const dataDir = join(clone, '.data');
    const port = await freePort();
    const pgPort = await freePort();
    const clustersBefore = earlierClusters();
    try {
      let written = '';
      for (const round of [1, 2]) {
        const proc = spawnService({ port, pgPort, cwd: clone });
        try {
          await waitHealthy(proc, port);
          const headers = await devHeaders(dataDir);
          if (round === 1) written = await createTranscription(port, headers, 'from a closed folder');
          else expect(await transcriptionStatus(port, headers, written)).toBe(200);
          process.kill(await servicePid(proc), 'SIGTERM');
          await expect.poll(() => proc.output(), { timeout: 45_000 }).toMatch(/"message":"stopped"/);
          expect(troubleIn(proc.output())).toEqual([]);
        } catch (err) {
          throw new Error(`round ${round}: ${(err as Error).message}\n--- output ---\n${proc.output().slice(-4000)}`);
        } finally {
          signalGroup(proc.child, 'SIGKILL');
        }
      }
      // The cluster lives in the clone, owned by `postgres`, closed to others; nothing was placed outside.
      const cluster = join(dataDir, 'pg');
      expect(existsSync(join(cluster, 'PG_VERSION'))).toBe(true);
      expect(existsSync(join(cluster, 'postmaster.pid'))).toBe(false);
      expect(statSync(cluster).uid).toBe(Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' })));
      expect(statSync(cluster).mode & 0o777).toBe(0o700);
      expect(existsSync(join(dataDir, 'pg-location.json'))).toBe(false);
      expect(earlierClusters()).toEqual(clustersBefore);
      expect(statSync(closed).mode & 0o777).toBe(0o700);
      expect(statSync(join(dataDir, 'secrets.json')).mode & 0o777).toBe(0o600);
    } finally {
      rmSync(closed, { recursive: true, force: true });
    }
  }, 240_000);
});
