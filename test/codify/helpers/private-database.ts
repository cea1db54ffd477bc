import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { inject } from 'vitest';
import { migrate } from '../../../src/db/migrate.js';
import { createPool } from '../../../src/db/pool.js';

export interface PrivateDatabase {
  url: string;
  drop(): Promise<void>;
}

/**
 * A migrated database of this test file's own, on the test server. Codify tests need one: their
 * jobs go through the shared `codify` queue, and a worker of another test file (with another
 * engine) must not take them; the import tests replace the code table, which others must not see.
 */
export async function privateDatabase(label: string): Promise<PrivateDatabase> {
  const adminUrl = inject('adminDatabaseUrl');
  const name = `clinigate_test_${label}_${Date.now()}_${randomBytes(3).toString('hex')}`;
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
