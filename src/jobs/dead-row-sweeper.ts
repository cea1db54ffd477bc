import type { Pool } from '../db/pool.js';
import { autovacuumOn, HOT_TABLES, tableHealth, vacuumTable } from '../db/table-health.repo.js';
import type { Logger } from '../lib/logger.js';

/** How often the hot tables' dead rows are counted. */
const CHECK_MS = 5_000;
/** A table is vacuumed once this many of its rows are dead, and they are a tenth of it. */
const MIN_DEAD = 20_000;

export interface DeadRowSweeper {
  stop(): void;
}

/**
 * Every ingested event leaves dead row versions behind: its job moves created -> active ->
 * completed, and the event row is claimed and then completed. Autovacuum clears them; on a
 * server where autovacuum is off (some test servers), nothing does, and pg-boss's fetch walks an
 * ever longer run of dead index entries, so throughput falls as events accumulate (README "Why it
 * is built this way"). When autovacuum is off, this vacuums those tables itself once enough rows are dead.
 * With autovacuum on it does nothing.
 */
export function startDeadRowSweeper(deps: { pool: Pool; logger: Logger }, checkMs = CHECK_MS): DeadRowSweeper {
  let running = false;
  const sweep = async () => {
    if (running) return;
    running = true;
    try {
      if (await autovacuumOn(deps.pool)) return;
      for (const t of await tableHealth(deps.pool, HOT_TABLES)) {
        if (t.dead < MIN_DEAD || t.dead < t.live / 10) continue;
        const started = performance.now();
        await vacuumTable(deps.pool, t.table as (typeof HOT_TABLES)[number]);
        deps.logger.info('vacuumed a hot table (autovacuum is off)', {
          table: t.table,
          dead_rows: t.dead,
          duration_ms: Math.round(performance.now() - started),
        });
      }
    } catch (err) {
      deps.logger.warn('dead-row sweep failed', { error_name: (err as Error).name, error_code: (err as { code?: string }).code });
    } finally {
      running = false;
    }
  };
  const timer = setInterval(() => void sweep(), checkMs);
  timer.unref();
  return { stop: () => clearInterval(timer) };
}
