import pg from 'pg';

export type Pool = pg.Pool;
export type PoolClient = pg.PoolClient;

/** Anything that runs SQL: the pool or a client inside a transaction. Repo functions take this. */
export interface Queryable {
  // pg's own default row type: repos name their row types at each call.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  query<R extends pg.QueryResultRow = any>(text: string | pg.QueryConfig, values?: unknown[]): Promise<pg.QueryResult<R>>;
}

// Return bigint counts as numbers; ids are UUIDs and amounts stay small.
pg.types.setTypeParser(pg.types.builtins.INT8, (v) => Number(v));

export function createPool(connectionString: string, max = 10): Pool {
  const pool = new pg.Pool({ connectionString, max, application_name: 'clinigate', connectionTimeoutMillis: 5_000 });
  // An idle client losing its connection (database restart) must not crash the process.
  pool.on('error', () => {});
  return pool;
}
