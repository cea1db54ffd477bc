import type { Server } from 'node:http';
import { createApp } from './app.js';
import { ConfigError, parseConfig, type Config } from './config.js';
import { startEmbeddedPostgres, type EmbeddedDatabase } from './db/embedded.js';
import { migrate } from './db/migrate.js';
import { createPool } from './db/pool.js';
import { devBanner } from './dev-banner.js';
import { fillDevSecrets } from './dev-secrets.js';
import { startWorkers, type Workers } from './jobs/workers.js';
import { createLogger, type Logger } from './lib/logger.js';
import { seedCatalog } from './modules/centers/seed-catalog.js';
import { startMllpListener, type MllpListener } from './modules/hl7-inbound/mllp-listener.js';
import { openRuntime, type Runtime } from './runtime.js';

interface Running {
  server?: Server;
  mllp?: MllpListener;
  runtime?: Runtime;
  workers?: Workers;
  embedded?: EmbeddedDatabase;
}

export interface StartOptions {
  /** Overrides ROLE from the environment (`clinigate serve --role`). */
  role?: Config['ROLE'];
}

function loadConfig(options: StartOptions): { config: Config; generated: string[] } {
  try {
    const config = parseConfig(options.role ? { ...process.env, ROLE: options.role } : process.env);
    return config.NODE_ENV === 'production' ? { config, generated: [] } : fillDevSecrets(config);
  } catch (err) {
    if (err instanceof ConfigError) {
      process.stderr.write(`${err.message}\n`);
      process.exit(1);
    }
    throw err;
  }
}

/** Migrations under their advisory lock, then the centers catalog seed on first start. */
async function prepareDatabase(databaseUrl: string, logger: Logger): Promise<void> {
  const pool = createPool(databaseUrl, 2);
  try {
    const applied = await migrate(pool);
    if (applied.length) logger.info('migrations applied', { migrations: applied });
    const seededCenters = await seedCatalog(pool);
    if (seededCenters) logger.info('centers catalog seeded', { centers: seededCenters });
  } finally {
    await pool.end();
  }
}

/**
 * Boot: config -> database (embedded or DATABASE_URL) -> migrations -> pg-boss -> queues -> HTTP.
 * Runs until SIGTERM/SIGINT, then shuts down in order and exits. Used by main.ts (`npm start`)
 * and `clinigate serve`.
 */
export async function startServer(options: StartOptions = {}): Promise<void> {
  const { config, generated } = loadConfig(options);
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
  await prepareDatabase(databaseUrl, logger);
  // Imports ICD10CM_FILE when its content is new; another process's import is seen within a minute.
  running.runtime = await openRuntime(config, databaseUrl, logger, { codeTableWatchMs: 60_000 });
  const { deps } = running.runtime;
  if (config.ROLE !== 'api') running.workers = await startWorkers(deps);
  if (config.ROLE !== 'worker') {
    const app = createApp(deps);
    running.server = app.listen(config.PORT, () => logger.info('listening', { port: config.PORT, role: config.ROLE, pid: process.pid }));
    if (config.HL7_MLLP_PORT !== undefined) running.mllp = await startMllpListener(deps, config.HL7_MLLP_PORT, config.HL7_MLLP_HOST);
  }
  if (config.NODE_ENV !== 'production') process.stdout.write(await devBanner(config, generated));
}

/** Shutdown in order: stop taking HTTP and MLLP, let workers finish, close the pool, stop embedded PostgreSQL. */
async function shutdown(running: Running, logger: Logger, signal: string): Promise<void> {
  logger.info('shutting down', { signal });
  const force = setTimeout(() => process.exit(1), 30_000);
  force.unref();
  const server = running.server;
  // MLLP first: messages already read are still answered (AA after their commit), then it closes.
  await running.mllp?.stop().catch(() => {});
  if (server) {
    // Long joins and event streams would hold close() open: they get 10 s, then are cut.
    await new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeIdleConnections();
      setTimeout(() => server.closeAllConnections(), 10_000).unref();
    });
  }
  running.workers?.stop();
  await running.runtime?.stop({ graceful: true });
  await running.embedded?.stop().catch(() => {});
  logger.info('stopped');
  process.exit(0);
}
