import pg from 'pg';
import type { Config } from '../config.js';
import type { EmbeddedDatabase } from '../db/embedded.js';
import { lockHolder } from '../db/data-dir-lock.js';
import { describeUrl } from '../db/describe-url.js';
import { rememberedPort } from '../db/embedded-port.js';
import { createPool, type Pool } from '../db/pool.js';
import { CliError } from './cli-errors.js';

export interface CliDatabase {
  url: string;
  pool: Pool;
  /** Ends the pool, and stops the embedded PostgreSQL when this command started it. */
  close(): Promise<void>;
}

export { describeUrl };

async function reachable(url: string): Promise<void> {
  const probe = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5_000 });
  try {
    await probe.connect();
  } finally {
    await probe.end().catch(() => {});
  }
}

/**
 * The service's database: DATABASE_URL; else the embedded one in DATA_DIR, the running
 * service's when it is up (two processes cannot share the data directory), or started here.
 */
export async function resolveDatabase(config: Config): Promise<{ url: string; embedded?: EmbeddedDatabase }> {
  if (config.DATABASE_URL) {
    try {
      await reachable(config.DATABASE_URL);
    } catch (err) {
      throw new CliError(
        `cannot reach the database at ${describeUrl(config.DATABASE_URL)}: ${(err as Error).message || (err as { code?: string }).code}`,
      );
    }
    return { url: config.DATABASE_URL };
  }
  // The running service's cluster, on the port it remembered; only when this DATA_DIR's service
  // holds it (another clone's cluster may answer on a port this one used before).
  const runningPort = lockHolder(config.DATA_DIR) ? (config.EMBEDDED_PG_PORT ?? rememberedPort(config.DATA_DIR)) : undefined;
  if (runningPort !== undefined) {
    const url = `postgres://postgres:postgres@127.0.0.1:${runningPort}/clinigate`;
    try {
      await reachable(url);
      return { url };
    } catch (err) {
      throw new CliError(`the service running on ${config.DATA_DIR} holds its database, which does not answer: ${(err as Error).message}`);
    }
  }
  try {
    const { startEmbeddedPostgres } = await import('../db/embedded.js');
    const embedded = await startEmbeddedPostgres(config.DATA_DIR, config.EMBEDDED_PG_PORT);
    return { url: embedded.connectionString, embedded };
  } catch (err) {
    throw new CliError(`cannot start the embedded database in ${config.DATA_DIR}: ${(err as Error).message}`);
  }
}

/** A small pool on the resolved database; close() releases it (and an embedded server started here). */
export async function openDatabase(config: Config): Promise<CliDatabase> {
  const { url, embedded } = await resolveDatabase(config);
  const pool = createPool(url, 2);
  return {
    url,
    pool,
    close: async () => {
      await pool.end().catch(() => {});
      await embedded?.stop().catch(() => {});
    },
  };
}

/** Runs fn with the database open, closing it whatever happens. */
export async function withDatabase<T>(config: Config, fn: (db: CliDatabase) => Promise<T>): Promise<T> {
  const db = await openDatabase(config);
  try {
    return await fn(db);
  } finally {
    await db.close();
  }
}
