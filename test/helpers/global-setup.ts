import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { createDatabase } from '../../src/db/create-database.js';
import { startEmbeddedPostgres, type EmbeddedDatabase } from '../../src/db/embedded.js';
import { migrate } from '../../src/db/migrate.js';
import { createPool } from '../../src/db/pool.js';
import { QUEUES } from '../../src/job-registry.js';
import { startBoss } from '../../src/jobs/boss.js';
import { createLogger } from '../../src/lib/logger.js';
import { freePort } from '../../src/lib/free-port.js';

declare module 'vitest' {
  export interface ProvidedContext {
    databaseUrl: string;
    adminDatabaseUrl: string;
  }
}

/**
 * One fresh database per test run: on DATABASE_URL's server when set (CI and this machine),
 * else on an embedded PostgreSQL in a temporary directory. Migrations and pg-boss's schema are
 * installed once here; test files share the database and isolate by fresh random ids.
 */
export default async function setup(project: TestProject) {
  let embedded: EmbeddedDatabase | undefined;
  let embeddedDir: string | undefined;
  let adminUrl = process.env.DATABASE_URL;
  if (!adminUrl) {
    embeddedDir = mkdtempSync(join(tmpdir(), 'clinigate-test-pg-'));
    embedded = await startEmbeddedPostgres(embeddedDir, await freePort());
    adminUrl = embedded.connectionString;
  }
  const database = await createDatabase(adminUrl, 'clinigate_test');
  const databaseUrl = database.url;
  const pool = createPool(databaseUrl);
  await migrate(pool);
  await pool.end();
  const boss = await startBoss(databaseUrl, createLogger('error', { silent: true }), QUEUES, { supervise: false });
  await boss.stop({ graceful: false });

  project.provide('databaseUrl', databaseUrl);
  project.provide('adminDatabaseUrl', adminUrl);

  return async () => {
    await database.drop();
    await embedded?.stop();
    if (embeddedDir) rmSync(embeddedDir, { recursive: true, force: true });
  };
}
