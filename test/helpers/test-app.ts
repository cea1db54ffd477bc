import type { RequestListener } from 'node:http';
import { inject } from 'vitest';
import { createApp, type AppRoute } from '../../src/app.js';
import type { AppDeps } from '../../src/app-deps.js';
import { parseConfig, type Config } from '../../src/config.js';
import { startJobRunner } from '../../src/job-runner.js';
import { createLogger, type Logger } from '../../src/lib/logger.js';
import { Metrics } from '../../src/metrics/metrics.js';
import { AuditWriter } from '../../src/modules/audit/audit-writer.js';
import { openRuntime } from '../../src/runtime.js';
import type { CodeTableStore } from '../../src/terminology/code-table-store.js';
import { TEST_JWT_SECRET } from './tokens.js';
import { isolatedDatabase } from './isolated-database.js';

export const TEST_API_KEYS = ['test-api-key-current', 'test-api-key-previous'];
/** Operator keys: one named (`name:key`), one bare (named by its fingerprint in the audit trail). */
export const TEST_OPERATOR_KEYS = ['ops-test:test-operator-key', 'test-operator-key-bare'];
/** The named operator key's value (audit user `ops-test`): every X-Api-Key route. */
export const TEST_OPERATOR_KEY = 'test-operator-key';
export const TEST_ENCRYPTION_KEY = Buffer.alloc(32, 7).toString('base64');
export const TEST_EHR_SECRET = 'test-ehr-webhook-secret';
export const TEST_VOICE_SECRET = 'test-voice-webhook-secret';

export function testEnv(overrides: Record<string, string> = {}): NodeJS.ProcessEnv {
  return {
    NODE_ENV: 'test',
    DATABASE_URL: inject('databaseUrl'),
    JWT_SECRET: TEST_JWT_SECRET,
    VOICE_API_KEYS: TEST_API_KEYS.join(','),
    OPERATOR_API_KEYS: TEST_OPERATOR_KEYS.join(','),
    SECRETS_ENCRYPTION_KEY: TEST_ENCRYPTION_KEY,
    EHR_WEBHOOK_SECRET: TEST_EHR_SECRET,
    VOICE_WEBHOOK_SECRET: TEST_VOICE_SECRET,
    WEBHOOK_RETRY_SCHEDULE: '1,1,1',
    WEBHOOK_ALLOW_PRIVATE: 'true',
    LOG_LEVEL: 'error',
    ...overrides,
  };
}

export interface TestApp {
  /** The app's request listener: `request(t.app)` (supertest), `createServer(t.app)` for a real server. */
  app: RequestListener;
  /** Every route the app registered (method and path). */
  routes: readonly AppRoute[];
  deps: AppDeps;
  config: Config;
  /** The ICD-10-CM table in force (imported codes, else the shipped FY2026 release); refresh() after an import. */
  codeTables: CodeTableStore;
  close(): Promise<void>;
}

export interface TestAppOptions {
  env?: Record<string, string>;
  logger?: Logger;
  /** Replace parts of the dependencies (a failing pool, another engine). */
  deps?: Partial<AppDeps>;
  /** Start the queue workers in this process too (ROLE=all). */
  workers?: boolean;
  /** pg-boss supervision (expiring jobs of dead workers), as the service runs it; off by default. */
  supervise?: boolean;
}

/** The real app on the test database, with pg-boss started; close() releases everything. */
export async function startTestApp(options: TestAppOptions = {}): Promise<TestApp> {
  const config = parseConfig(testEnv(options.env));
  const logger = options.logger ?? createLogger('error', { silent: true });
  const runtime = await openRuntime(config, config.DATABASE_URL!, logger, { supervise: options.supervise ?? false });
  const deps: AppDeps = { ...runtime.deps, ...options.deps };
  if (options.deps?.pool) {
    deps.metrics = new Metrics(options.deps.pool);
    deps.audit = new AuditWriter(options.deps.pool, logger);
  }
  const workers = options.workers ? await startJobRunner(deps) : undefined;
  const { listener, routes } = createApp(deps);
  return {
    app: listener,
    routes,
    deps,
    config,
    codeTables: runtime.codeTables,
    close: async () => {
      workers?.stop();
      // A writer made above for a replaced pool is not the runtime's: stop() would not flush it.
      if (deps.audit !== runtime.deps.audit) await deps.audit.close();
      await runtime.stop({ graceful: false });
    },
  };
}

/**
 * The real app on a migrated database of this test file's own (isolated-database.ts): for files
 * whose jobs, endpoints or audit rows must not meet another file's. close() also drops it.
 */
export async function startIsolatedTestApp(options: TestAppOptions = {}): Promise<TestApp> {
  const db = await isolatedDatabase();
  const t = await startTestApp({ ...options, env: { ...options.env, DATABASE_URL: db.url } });
  return {
    ...t,
    close: async () => {
      await t.close();
      await db.drop();
    },
  };
}
