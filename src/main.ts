import type { Server } from 'node:http';
import type { PgBoss } from 'pg-boss';
import { createApp } from './app.js';
import { ConfigError, parseConfig, type Config } from './config.js';
import { startEmbeddedPostgres, type EmbeddedDatabase } from './db/embedded.js';
import { migrate } from './db/migrate.js';
import { ALL_CHANNELS, NotificationHub } from './db/notifications.js';
import { createPool, type Pool } from './db/pool.js';
import { devBanner } from './dev-banner.js';
import { fillDevSecrets } from './dev-secrets.js';
import { startBoss } from './jobs/boss.js';
import { seedCatalog } from './modules/centers/seed-catalog.js';
import { startWorkers } from './jobs/workers.js';
import { createEngine } from './engine/create-engine.js';
import { openCodeTableStore } from './terminology/code-table-store.js';
import { createLogger, type Logger } from './lib/logger.js';

interface Running {
  server?: Server;
  boss?: PgBoss;
  notifications?: NotificationHub;
  pool?: Pool;
  embedded?: EmbeddedDatabase;
}

function loadConfig(): { config: Config; generated: string[] } {
  try {
    const config = parseConfig();
    return config.NODE_ENV === 'production' ? { config, generated: [] } : fillDevSecrets(config);
  } catch (err) {
    if (err instanceof ConfigError) {
      process.stderr.write(`${err.message}\n`);
      process.exit(1);
    }
    throw err;
  }
}

/** Boot: config -> database (embedded or DATABASE_URL) -> migrations -> pg-boss -> queues -> HTTP. */
async function main(): Promise<void> {
  const { config, generated } = loadConfig();
  const logger = createLogger(config.LOG_LEVEL);
  const running: Running = {};
  process.once('SIGTERM', () => void shutdown(running, logger, 'SIGTERM'));
  process.once('SIGINT', () => void shutdown(running, logger, 'SIGINT'));

  let databaseUrl = config.DATABASE_URL;
  if (!databaseUrl) {
    running.embedded = await startEmbeddedPostgres(config.DATA_DIR, config.EMBEDDED_PG_PORT);
    databaseUrl = running.embedded.connectionString;
    logger.info('embedded PostgreSQL started', { port: config.EMBEDDED_PG_PORT, data_dir: config.DATA_DIR });
  }
  running.pool = createPool(databaseUrl);
  const applied = await migrate(running.pool);
  if (applied.length) logger.info('migrations applied', { migrations: applied });
  const seededCenters = await seedCatalog(running.pool);
  if (seededCenters) logger.info('centers catalog seeded', { centers: seededCenters });
  running.boss = await startBoss(databaseUrl, logger);

  // Imports ICD10CM_FILE when its content is new; another process's import is seen within a minute.
  const codeTables = await openCodeTableStore(running.pool, logger, { icd10File: config.ICD10CM_FILE, watchMs: 60_000 });
  const engine = createEngine(config, { codeTable: () => codeTables.current() });
  running.notifications = new NotificationHub(databaseUrl, ALL_CHANNELS, logger);
  await running.notifications.start();
  const deps = { config, pool: running.pool, boss: running.boss, logger, engine, notifications: running.notifications };
  if (config.ROLE !== 'api') await startWorkers(deps);
  if (config.ROLE !== 'worker') {
    const app = createApp(deps);
    running.server = app.listen(config.PORT, () => logger.info('listening', { port: config.PORT, role: config.ROLE, pid: process.pid }));
  }
  if (config.NODE_ENV !== 'production') process.stdout.write(await devBanner(config, generated));
}

/** Shutdown in order: stop taking HTTP, let workers finish, close the pool, stop embedded PostgreSQL. */
async function shutdown(running: Running, logger: Logger, signal: string): Promise<void> {
  logger.info('shutting down', { signal });
  const force = setTimeout(() => process.exit(1), 30_000);
  force.unref();
  if (running.server) {
    await new Promise<void>((resolve) => running.server!.close(() => resolve()));
  }
  await running.boss?.stop({ graceful: true, timeout: 20_000 }).catch(() => {});
  await running.notifications?.stop();
  await running.pool?.end().catch(() => {});
  await running.embedded?.stop().catch(() => {});
  logger.info('stopped');
  process.exit(0);
}

main().catch((err: Error) => {
  process.stderr.write(`Start-up failed: ${err.message}\n`);
  process.exit(1);
});
