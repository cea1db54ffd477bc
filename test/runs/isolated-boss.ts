import { randomBytes } from 'node:crypto';
import { inject } from 'vitest';
import type { AppDeps } from '../../src/app-deps.js';
import { startIsolatedBoss } from '../helpers/boss-in-schema.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';

export { startIsolatedBoss };

export const newBossSchema = () => `pgboss_runs_${randomBytes(4).toString('hex')}`;

export interface RunsTestApp extends TestApp {
  schema: string;
}

/** The test app with its own job schema; close() stops that pg-boss too. */
export async function startRunsTestApp(
  options: { workers?: boolean; deps?: Partial<AppDeps>; schema?: string; supervise?: boolean } = {},
): Promise<RunsTestApp> {
  const schema = options.schema ?? newBossSchema();
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
