import type { Gauge } from 'prom-client';
import type { Queryable } from '../db/pool.js';
import { waitingJobsByQueue } from '../jobs/pgboss.repo.js';

const TABLES = ['runs', 'codify_runs', 'webhook_deliveries', 'calls', 'inbound_events'] as const;

interface StateGauges {
  state: Gauge<'table' | 'state'>;
  queueDepth: Gauge<'queue'>;
  oldestWaiting: Gauge<'queue'>;
}

/** Counts by state of the tables operators watch, and the waiting jobs per queue. */
export async function collectStateGauges(db: Queryable, g: StateGauges): Promise<void> {
  const counts = await db.query<{ tbl: string; state: string; n: number }>(
    TABLES.map((t) => `SELECT '${t}' AS tbl, status AS state, count(*)::int AS n FROM ${t} GROUP BY status`).join(' UNION ALL '),
  );
  g.state.reset();
  for (const r of counts.rows) g.state.set({ table: r.tbl, state: r.state }, r.n);

  const queues = await waitingJobsByQueue(db);
  g.queueDepth.reset();
  g.oldestWaiting.reset();
  for (const q of queues) {
    g.queueDepth.set({ queue: q.queue }, q.depth);
    g.oldestWaiting.set({ queue: q.queue }, q.oldestSeconds);
  }
}
