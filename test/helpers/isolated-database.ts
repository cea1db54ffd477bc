import { inject } from 'vitest';
import { createDatabase, type CreatedDatabase } from '../../src/db/create-database.js';
import { migrate } from '../../src/db/migrate.js';
import { createPool } from '../../src/db/pool.js';

export type IsolatedDatabase = CreatedDatabase;

/**
 * A migrated database of one test file's own, on the test server. Files whose jobs go through
 * shared queues need one: a worker of another test file (another engine, another config) would
 * otherwise take their jobs, or see their endpoints and code tables.
 */
export async function isolatedDatabase(label = 'iso'): Promise<IsolatedDatabase> {
  const db = await createDatabase(inject('adminDatabaseUrl'), `clinigate_${label}`);
  const pool = createPool(db.url, 1);
  await migrate(pool);
  await pool.end();
  return db;
}
