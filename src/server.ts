import { createServer, type RequestListener, type Server } from 'node:http';
import { createApp } from './app.js';
import { ConfigError, parseConfig, type Config } from './config.js';
import { startEmbeddedPostgres, type EmbeddedDatabase } from './db/embedded.js';
import { migrate } from './db/migrate.js';
import { createPool } from './db/pool.js';
import { devBanner, workerBanner } from './dev-banner.js';
import { fillDevSecrets, type DevSecrets } from './dev-secrets.js';
import { startJobRunner, type JobRunner } from './job-runner.js';
import { startJobRunnerThread, type JobRunnerThread } from './job-runner-thread.js';
import { createLogger, type Logger } from './lib/logger.js';
import { seedCatalog } from './modules/centers/seed-catalog.js';
import { StartupError } from './lib/startup-error.js';
import { mllpOptions } from './modules/hl7/mllp-options.js';
import { startMllpListener, type MllpListener } from './modules/hl7/mllp-listener.js';
import { openRuntime, type Runtime } from './runtime.js';

interface Running {
  server?: Server;
  mllp?: MllpListener;
  runtime?: Runtime;
  workers?: JobRunner;
  workersThread?: JobRunnerThread;
  embedded?: EmbeddedDatabase;
}

export interface StartOptions {
  /** Overrides ROLE from the environment (`clinigate serve --role`). */
  role?: Config['ROLE'];
}

function loadConfig(options: StartOptions): DevSecrets {
  try {
    const config = parseConfig(options.role ? { ...process.env, ROLE: options.role } : process.env);
    return config.NODE_ENV === 'production' ? { config, generated: [], created: [] } : fillDevSecrets(config);
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

/** The HTTP server once it listens; a port that cannot be had is a one-line StartupError. */
function listen(listener: RequestListener, port: number): Promise<Server> {
  return new Promise((resolve, reject) => {
    const server = createServer(listener);
    server.once('error', (err: NodeJS.ErrnoException) => {
      if (err.code === 'EADDRINUSE')
        reject(new StartupError(`port ${port} is in use by another process: stop it, or set PORT to a free port`));
      else if (err.code === 'EACCES') reject(new StartupError(`port ${port} needs privileges this process lacks: set PORT above 1023`));
      else reject(err);
    });
    server.listen(port, () => resolve(server));
  });
}

/** Each step checks `stopping()`: a signal during start-up stops what started and starts nothing more. */
async function boot(
  config: Config,
  secrets: Omit<DevSecrets, 'config'>,
  logger: Logger,
  running: Running,
  stopping: () => boolean,
  onWorkersLost: (reason: string) => void,
): Promise<void> {
  let databaseUrl = config.DATABASE_URL;
  if (!databaseUrl) {
    running.embedded = await startEmbeddedPostgres(config.DATA_DIR, config.EMBEDDED_PG_PORT);
    databaseUrl = running.embedded.connectionString;
    logger.info('embedded PostgreSQL started', {
      port: running.embedded.port,
      data_dir: config.DATA_DIR,
      cluster: running.embedded.clusterDir,
    });
  }
  if (stopping()) return;
  await prepareDatabase(databaseUrl, logger);
  // Imports ICD10CM_FILE when its content is new; another process's import is seen within a minute.
  // Only a thread that runs the workers codes, so only it holds the table in memory.
  running.runtime = await openRuntime(config, databaseUrl, logger, { codeTableWatchMs: 60_000, codesInMemory: config.ROLE === 'worker' });
  const { deps } = running.runtime;
  if (stopping()) return;
  if (config.ROLE === 'all') {
    // In a thread of their own, off the event loop that answers HTTP (job-runner-thread.ts).
    running.workersThread = await startJobRunnerThread(config, databaseUrl, deps.metrics, logger, onWorkersLost);
    logger.info('workers started', { role: config.ROLE, pid: process.pid, thread: 'clinigate-workers' });
  }
  if (config.ROLE === 'worker') {
    running.workers = await startJobRunner(deps);
    logger.info('workers started', { role: config.ROLE, pid: process.pid });
    if (config.NODE_ENV !== 'production' && !stopping()) process.stdout.write(workerBanner(config, running.embedded));
    return;
  }
  if (stopping()) return;
  running.server = await listen(createApp(deps).listener, config.PORT);
  // Only now: a copy whose port was taken must never claim it listens.
  logger.info('listening', { port: config.PORT, role: config.ROLE, pid: process.pid });
  if (stopping()) return;
  if (config.HL7_MLLP_PORT !== undefined || config.HL7_MLLPS_PORT !== undefined)
    running.mllp = await startMllpListener(deps, mllpOptions(config));
  if (config.NODE_ENV !== 'production') process.stdout.write(await devBanner(config, secrets, running.embedded));
}

/**
 * Boot: config -> database (embedded or DATABASE_URL) -> migrations -> pg-boss -> queues -> HTTP.
 * Runs until SIGTERM/SIGINT, then shuts down in order and exits 0. A start-up failure (a port or
 * the data folder in use) stops whatever had started, in the same order, and rejects with the
 * reason. Used by main.ts (`npm start`) and `clinigate serve`.
 */
export async function startServer(options: StartOptions = {}): Promise<void> {
  const { config, ...secrets } = loadConfig(options);
  const logger = createLogger(config.LOG_LEVEL);
  const running: Running = {};
  let stopping = false;
  let stopped: Promise<void> | undefined;
  const stopOnce = () => (stopped ??= stopAll(running, logger));
  let startup: Promise<void> = Promise.resolve();
  const shutDown = (exitCode: number) => {
    stopping = true;
    setTimeout(() => process.exit(1), 30_000).unref();
    void startup
      .catch(() => {})
      .then(stopOnce)
      .then(() => {
        logger.info('stopped');
        process.exit(exitCode);
      });
  };
  const onSignal = (signal: NodeJS.Signals) => {
    // A terminal's Ctrl-C may come twice (npm forwards it too): one shutdown, never a second death.
    if (stopping) return;
    logger.info('shutting down', { signal });
    shutDown(0);
  };
  process.on('SIGTERM', onSignal);
  process.on('SIGINT', onSignal);
  // Events accepted but never processed would pile up unseen: the process stops (exit 1) so its
  // supervisor starts it again, and the accepted events are processed then.
  const onWorkersLost = (reason: string) => {
    if (stopping) return;
    logger.error('workers thread ended unexpectedly: shutting down', { reason });
    shutDown(1);
  };

  startup = boot(config, { generated: secrets.generated, created: secrets.created }, logger, running, () => stopping, onWorkersLost);
  try {
    await startup;
  } catch (err) {
    if (stopping) return; // the signal's shutdown is under way and exits by itself
    stopping = true;
    await stopOnce();
    throw err;
  }
}

/** Shutdown in order: stop taking HTTP and MLLP, let workers finish, close the pool, stop embedded PostgreSQL. */
async function stopAll(running: Running, logger: Logger): Promise<void> {
  const server = running.server;
  // MLLP first: messages already read are still answered (AA after their commit), then it closes.
  await running.mllp?.stop().catch(() => {});
  // The workers' thread stops (gracefully) while the HTTP answers still open end.
  const workersThreadStopped = running.workersThread?.stop();
  if (server) {
    // Long joins and event streams would hold close() open: they get 10 s, then are cut.
    await new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeIdleConnections();
      setTimeout(() => server.closeAllConnections(), 10_000).unref();
    });
  }
  await workersThreadStopped;
  running.workers?.stop();
  await running.runtime?.stop({ graceful: true });
  // The pools closed above; a connection still open is waited for (5 s at most) rather than cut.
  const lingering = await running.embedded?.stop({ lingerMs: 5_000 }).catch(() => []);
  if (lingering?.length) logger.warn('embedded PostgreSQL stopped with connections still open', { applications: lingering });
}
