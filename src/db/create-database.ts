import { randomBytes } from 'node:crypto';
import pg from 'pg';

export interface CreatedDatabase {
  url: string;
  /** Drops it, closing any connection still open to it. */
  drop(): Promise<void>;
}

/**
 * A new, empty database with a unique name on the server of `adminUrl` (test runs, benchmarks
 * and tests that need a database of their own).
 */
export async function createDatabase(adminUrl: string, prefix: string): Promise<CreatedDatabase> {
  const name = `${prefix}_${Date.now()}_${randomBytes(3).toString('hex')}`.toLowerCase().replace(/[^a-z0-9_]/g, '_');
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${pg.escapeIdentifier(name)}`);
  } finally {
    await admin.end();
  }
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      const c = new pg.Client({ connectionString: adminUrl });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS ${pg.escapeIdentifier(name)} WITH (FORCE)`).catch(() => {});
      await c.end();
    },
  };
}
