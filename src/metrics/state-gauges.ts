import type { Gauge } from 'prom-client';
import type { Queryable } from '../db/pool.js';
import { statusCounts } from '../db/status-counts.repo.js';
import { waitingJobsByQueue } from '../jobs/pgboss.repo.js';

interface StateGauges {
  state: Gauge<'table' | 'state'>;
  queueDepth: Gauge<'queue'>;
  oldestWaiting: Gauge<'queue'>;
}

/** Counts by state of the tables operators watch, and the waiting jobs per queue. */
export async function collectStateGauges(db: Queryable, g: StateGauges): Promise<void> {
  const counts = await statusCounts(db);
  g.state.reset();
  for (const r of counts) g.state.set({ table: r.resource, state: r.status }, r.count);

  const queues = await waitingJobsByQueue(db);
  g.queueDepth.reset();
  g.oldestWaiting.reset();
  for (const q of queues) {
    g.queueDepth.set({ queue: q.queue }, q.depth);
    g.oldestWaiting.set({ queue: q.queue }, q.oldestSeconds);
  }
}
