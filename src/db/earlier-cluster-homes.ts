import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, rmSync, unlinkSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { StartupError } from '../lib/startup-error.js';

/**
 * Until 2026-11-26, as root in a folder closed to others, the cluster was placed in
 * CLUSTERS_BASE/<hash of DATA_DIR> and named in DATA_DIR/pg-location.json; a DATA_DIR deleted and
 * made again left its old cluster there as `<hash>.orphaned-<ms>`. Those are patient data outside
 * the project folder: the next start moves this DATA_DIR's cluster home, and `clinigate data`
 * lists and purges the rest.
 */
export const CLUSTERS_BASE = '/var/lib/clinigate/clusters';
export const LOCATION_FILE = 'pg-location.json';

/** The cluster an earlier version placed outside DATA_DIR, if DATA_DIR names one. */
export function rememberedEarlierCluster(dataDir: string): string | undefined {
  try {
    const { cluster } = JSON.parse(readFileSync(join(dataDir, LOCATION_FILE), 'utf8')) as { cluster?: string };
    return typeof cluster === 'string' && resolve(cluster).startsWith(`${CLUSTERS_BASE}/`) ? resolve(cluster) : undefined;
  } catch {
    return undefined;
  }
}

/** Every cluster folder under CLUSTERS_BASE (none when it does not exist). */
export function earlierClusters(): string[] {
  try {
    return readdirSync(CLUSTERS_BASE, { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => join(CLUSTERS_BASE, entry.name));
  } catch {
    return [];
  }
}

function postmasterRunning(clusterDir: string): boolean {
  try {
    const pid = Number(readFileSync(join(clusterDir, 'postmaster.pid'), 'utf8').split('\n')[0]);
    if (!(pid > 0)) return false;
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Moves the cluster an earlier version placed for this DATA_DIR into DATA_DIR/pg (mv keeps its
 * owner `postgres` across file systems), unless DATA_DIR/pg already holds a cluster.
 */
export function moveEarlierClusterHome(dataDir: string, clusterDir: string): void {
  const earlier = rememberedEarlierCluster(dataDir);
  if (!earlier) return;
  if (existsSync(join(earlier, 'PG_VERSION')) && !existsSync(join(clusterDir, 'PG_VERSION'))) {
    if (postmasterRunning(earlier))
      throw new StartupError(
        `the embedded cluster in ${earlier} is still running: stop it (kill the postgres of its postmaster.pid) and start again`,
      );
    rmSync(join(earlier, 'postmaster.pid'), { force: true });
    rmSync(clusterDir, { recursive: true, force: true }); // an empty folder at most
    const moved = spawnSync('mv', [earlier, clusterDir], { encoding: 'utf8' });
    if (moved.status !== 0)
      throw new StartupError(
        `could not move the embedded cluster from ${earlier} into ${clusterDir}: ${moved.stderr.trim() || moved.error?.message}`,
      );
  }
  unlinkSync(join(dataDir, LOCATION_FILE));
}
