import { randomBytes } from 'node:crypto';
import { PgBoss } from 'pg-boss';
import type { AppDeps } from '../../src/app-deps.js';
import { QUEUES } from '../../src/jobs/queues.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';

export interface IsolatedBossOptions {
  schema: string;
  /** Run pg-boss's supervisor every second (expired heartbeats are retried within seconds). */
  supervise?: boolean;
}

/**
 * pg-boss in a schema of its own: the run jobs of this test file are seen by its workers only,
 * not by other test files' workers on the shared test database.
 */
export async function startIsolatedBoss(connectionString: string, options: IsolatedBossOptions): Promise<PgBoss> {
  const boss = new PgBoss({
    connectionString,
    schema: options.schema,
    application_name: 'clinigate-test-jobs',
    useListenNotify: true,
    max: 10,
    supervise: options.supervise ?? false,
    schedule: false,
    superviseIntervalSeconds: 1,
    monitorIntervalSeconds: 1,
  });
  boss.on('error', () => {});
  await boss.start();
  for (const queue of QUEUES) await boss.createQueue(queue.name, queue.options);
  return boss;
}

export const newBossSchema = () => `pgboss_runs_${randomBytes(4).toString('hex')}`;

export interface RunsTestApp extends TestApp {
  schema: string;
}

/** The test app with its own job schema; close() stops that pg-boss too. */
export async function startRunsTestApp(
  options: { workers?: boolean; deps?: Partial<AppDeps>; schema?: string; supervise?: boolean } = {},
): Promise<RunsTestApp> {
  const schema = options.schema ?? newBossSchema();
  const { inject } = await import('vitest');
  const boss = await startIsolatedBoss(inject('databaseUrl'), { schema, supervise: options.supervise });
  const app = await startTestApp({ workers: options.workers, deps: { ...options.deps, boss } });
  return {
    ...app,
    schema,
    close: async () => {
      await boss.stop({ graceful: false });
      await app.close();
    },
  };
}
