import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { inject } from 'vitest';
import { migrate } from '../../src/db/migrate.js';
import { createPool } from '../../src/db/pool.js';

export interface IsolatedDatabase {
  url: string;
  drop(): Promise<void>;
}

/**
 * A migrated database of one test file's own, on the test server. Files whose jobs go through
 * shared queues need one: a worker of another test file (another engine, another config) would
 * otherwise take their jobs, or see their endpoints and code tables.
 */
export async function isolatedDatabase(label = 'iso'): Promise<IsolatedDatabase> {
  const adminUrl = inject('adminDatabaseUrl');
  const name = `clinigate_${label}_${Date.now()}_${randomBytes(3).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const u = new URL(adminUrl);
  u.pathname = `/${name}`;
  const url = u.toString();
  const pool = createPool(url, 1);
  await migrate(pool);
  await pool.end();
  return {
    url,
    drop: async () => {
      const c = new pg.Client({ connectionString: adminUrl });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`).catch(() => {});
      await c.end();
    },
  };
}
