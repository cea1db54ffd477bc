import type { Pool, PoolClient } from './pool.js';

/** Runs fn in one transaction on one client; commits on success, rolls back on any throw. */
export async function withTransaction<T>(pool: Pool, fn: (client: PoolClient) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  // A connection lost while checked out (database restart: 57P01, "Connection terminated") is
  // also emitted as 'error' on the client; the pool listens only to idle clients, so without
  // this listener it would be an uncaught exception that stops the process. The failed query
  // still rejects, and the broken client is discarded on release.
  let lost: Error | undefined;
  const onError = (err: Error) => {
    lost = err;
  };
  client.on('error', onError);
  try {
    await client.query('BEGIN');
    const result = await fn(client);
    await client.query('COMMIT');
    return result;
  } catch (err) {
    await client.query('ROLLBACK').catch(() => {});
    throw err;
  } finally {
    client.off('error', onError);
    client.release(lost);
  }
}
