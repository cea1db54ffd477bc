import { createHash } from 'node:crypto';
import { existsSync, lstatSync, readdirSync, rmdirSync, rmSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { lockHolder } from './data-dir-lock.js';
import { CLUSTERS_BASE, earlierClusters, LOCATION_FILE, rememberedEarlierCluster } from './earlier-cluster-homes.js';
import { PORT_FILE, rememberedPort } from './embedded-port.js';

/** What the service keeps in DATA_DIR, and what each entry is. */
const ENTRIES: Record<string, string> = {
  pg: 'embedded PostgreSQL cluster: patient data',
  'secrets.json': 'generated development secrets (keys that seal stored credentials)',
  [PORT_FILE]: 'the embedded cluster port',
  [LOCATION_FILE]: 'where an earlier version placed the cluster',
  'clinigate.pid': 'the lock of a running service',
};

export interface HomeEntry {
  path: string;
  what: string;
  bytes: number;
}

export interface EarlierCluster {
  path: string;
  bytes: number;
  /** Whether it belongs to this DATA_DIR (named in its pg-location.json, or keyed by its path). */
  ours: boolean;
}

export interface DataHome {
  dataDir: string;
  exists: boolean;
  /** pid of the service running on it. */
  runningPid?: number;
  port?: number;
  entries: HomeEntry[];
  earlier: EarlierCluster[];
}

/** Bytes under a path (files only; links not followed; unreadable parts count 0). */
export function sizeOf(path: string): number {
  try {
    const stat = lstatSync(path);
    if (!stat.isDirectory()) return stat.size;
    return readdirSync(path).reduce((sum, name) => sum + sizeOf(join(path, name)), 0);
  } catch {
    return 0;
  }
}

/** The key an earlier version gave this DATA_DIR's cluster under CLUSTERS_BASE. */
function earlierKey(dataDir: string): string {
  return createHash('sha256').update(resolve(dataDir)).digest('hex').slice(0, 16);
}

/** DATA_DIR's entries, and the clusters earlier versions left under CLUSTERS_BASE. */
export function describeDataHome(dataDir: string): DataHome {
  const absolute = resolve(dataDir);
  const exists = existsSync(absolute);
  const entries = exists
    ? readdirSync(absolute).map((name) => ({
        path: join(absolute, name),
        what: ENTRIES[name] ?? 'not the service’s',
        bytes: sizeOf(join(absolute, name)),
      }))
    : [];
  const remembered = rememberedEarlierCluster(absolute);
  const key = earlierKey(absolute);
  const earlier = earlierClusters().map((path) => ({
    path,
    bytes: sizeOf(path),
    ours: path === remembered || basename(path) === key || basename(path).startsWith(`${key}.orphaned-`),
  }));
  return {
    dataDir: absolute,
    exists,
    runningPid: exists ? lockHolder(absolute) : undefined,
    port: rememberedPort(absolute),
    entries,
    earlier,
  };
}

/** What a purge removes: the service's entries of DATA_DIR, this DATA_DIR's earlier clusters, and every earlier cluster when asked. */
export function purgeTargets(home: DataHome, allEarlier: boolean): string[] {
  const own = home.entries.filter((e) => basename(e.path) in ENTRIES).map((e) => e.path);
  return [...own, ...home.earlier.filter((c) => allEarlier || c.ours).map((c) => c.path)];
}

/** Removes the targets, then DATA_DIR itself when nothing else is left in it. */
export function purge(home: DataHome, targets: string[]): void {
  for (const target of targets) rmSync(target, { recursive: true, force: true });
  try {
    rmdirSync(home.dataDir); // only when empty
  } catch {
    /* something of the user's is left in it, or it is gone */
  }
}

export { CLUSTERS_BASE };
