import type { AppDeps } from './app-deps.js';
import { encryptionKeys, type Config } from './config.js';
import { ALL_CHANNELS, NotificationHub } from './db/notifications.js';
import { createPool } from './db/pool.js';
import { createEngine } from './engine/create-engine.js';
import type { ClinicalEngine } from './engine/engine.js';
import { QUEUES } from './job-registry.js';
import { startBoss } from './jobs/boss.js';
import type { Logger } from './lib/logger.js';
import { Metrics } from './metrics/metrics.js';
import { SecretBox } from './lib/secret-box.js';
import { AuditWriter } from './modules/audit/audit-writer.js';
import { sealStoredSecrets } from './modules/secrets/seal-stored-secrets.js';
import { openCodeTableStore, type CodeTableStore } from './terminology/code-table-store.js';
import { eventTypes } from './event-registry.js';
import { transports } from './transport-registry.js';

export interface RuntimeOptions {
  /** pg-boss maintenance and schedules in this process (off in tests that start many). */
  supervise?: boolean;
  /** Re-read the ICD-10-CM table this often, to see another process's import. */
  codeTableWatchMs?: number;
  /**
   * False where nothing codes (the HTTP thread of ROLE=all, whose workers run in their own thread):
   * the ICD-10-CM file is still imported when new, but its table is not held in memory.
   */
  codesInMemory?: boolean;
  /** Another engine in place of the configured one (benchmarks, tests). */
  engine?: (codeTables: CodeTableStore) => ClinicalEngine;
}

export interface Runtime {
  deps: AppDeps;
  codeTables: CodeTableStore;
  /** pg-boss (gracefully when asked), the LISTEN connection, pending audit rows, then the pool. */
  stop(options?: { graceful?: boolean }): Promise<void>;
}

/**
 * Everything the app and the workers are built from, on one migrated database: the pool, pg-boss
 * with its queues, the ICD-10-CM table (importing ICD10CM_FILE when new), the engine, the LISTEN
 * hub and the metrics. One place, so the service, the tests and the benchmarks wire alike.
 */
export async function openRuntime(config: Config, databaseUrl: string, logger: Logger, options: RuntimeOptions = {}): Promise<Runtime> {
  const pool = createPool(databaseUrl);
  const boss = await startBoss(databaseUrl, logger, QUEUES, { supervise: options.supervise });
  // The local engine codes in worker threads, each with its own table and index: none is built here.
  const indexEagerly = config.ENGINE !== 'local' || options.engine !== undefined;
  const codeTables = await openCodeTableStore(pool, logger, {
    icd10File: config.ICD10CM_FILE,
    watchMs: options.codeTableWatchMs,
    indexEagerly,
    load: options.codesInMemory,
  });
  const engine = options.engine?.(codeTables) ?? (await createEngine(config, { codeTable: () => codeTables.inForce(), logger }));
  const notifications = new NotificationHub(databaseUrl, ALL_CHANNELS, logger);
  await notifications.start();
  const audit = new AuditWriter(pool, logger);
  const secrets = new SecretBox(encryptionKeys(config));
  await sealStoredSecrets(pool, secrets, logger);
  const deps: AppDeps = {
    config,
    pool,
    boss,
    logger,
    engine,
    notifications,
    metrics: new Metrics(pool),
    audit,
    secrets,
    eventTypes,
    transports,
  };
  return {
    deps,
    codeTables,
    stop: async ({ graceful = true } = {}) => {
      await boss.stop({ graceful, timeout: 20_000 }).catch(() => {});
      codeTables.stop();
      await engine.close?.();
      await notifications.stop();
      await audit.close();
      await pool.end().catch(() => {});
    },
  };
}
