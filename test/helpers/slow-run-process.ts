/**
 * A process running the run queue's job loops, for the crash test:
 * `node --import tsx test/helpers/slow-run-process.ts` with DATABASE_URL, BOSS_SCHEMA and ENGINE_DELAY_MS. Its engine is the local one slowed down (test
 * code), so a run is still in the engine when the test kills this process with SIGKILL.
 * Prints `runner-ready` once working and `engine-start` whenever a run reaches the engine.
 */
import { ALL_CHANNELS, NotificationHub } from '../../src/db/notifications.js';
import { createPool } from '../../src/db/pool.js';
import { LocalEngine } from '../../src/engine/local/local-engine.js';
import { startJobLoops } from '../../src/jobs/define-job.js';
import { runExecuteDeadJob } from '../../src/modules/runs/run-execute-dead.job.js';
import { runExecuteJob } from '../../src/modules/runs/run-execute.job.js';
import { createLogger } from '../../src/lib/logger.js';
import { CodeTable } from '../../src/terminology/code-table.js';
import { starterRows } from '../../src/terminology/starter-catalog.js';
import { startIsolatedBoss } from './boss-in-schema.js';
import { SlowEngine } from './slow-engine.js';

const url = process.env.DATABASE_URL!;
const logger = createLogger('error');
const pool = createPool(url);
const boss = await startIsolatedBoss(url, { schema: process.env.BOSS_SCHEMA! });
const notifications = new NotificationHub(url, ALL_CHANNELS, logger);
await notifications.start();
const table = new CodeTable(starterRows());
const engine = new SlowEngine(new LocalEngine(() => table), Number(process.env.ENGINE_DELAY_MS ?? 60_000));
engine.onStart = () => process.stdout.write('engine-start\n');
// Only what the run job uses: this file does not follow changes to AppDeps.
const deps = { pool, boss, logger, engine, notifications };
await startJobLoops(deps, runExecuteJob);
await startJobLoops(deps, runExecuteDeadJob);
process.stdout.write('runner-ready\n');
