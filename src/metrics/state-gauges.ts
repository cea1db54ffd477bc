import type { Gauge } from 'prom-client';
import type { Queryable } from '../db/pool.js';
import { endpointHealthValues, statusCounts } from '../db/status-counts.repo.js';
import { waitingJobsByQueue } from '../jobs/pgboss.repo.js';

interface StateGauges {
  state: Gauge<'table' | 'state'>;
  queueDepth: Gauge<'queue'>;
  oldestWaiting: Gauge<'queue'>;
  endpointHealth: Gauge<'endpoint_id'>;
}

const HEALTH_VALUE = { ok: 1, failing: 0, disabled: -1 } as const;

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

  const endpoints = await endpointHealthValues(db);
  g.endpointHealth.reset();
  for (const e of endpoints) g.endpointHealth.set({ endpoint_id: e.endpoint_id }, HEALTH_VALUE[e.health]);
}
