import { z } from 'zod';
import { withTransaction } from '../../db/transaction.js';
import type { InboundEventType } from '../inbound-events/inbound-event-type.js';
import { deleteCenter, deleteService, upsertCenter, upsertCenters, upsertService } from './catalog-events.js';
import { centerSchema, serviceSchema } from './centers.schema.js';

const byId = z.object({ id: z.string().trim().min(1).max(100) });

/**
 * A catalog change that cannot apply (a service whose center is gone: a client error) will not
 * apply on retry either: the job fails it once (jobs/job-failure.ts isPermanent).
 */
const applyOnce = (fn: () => Promise<unknown>) => fn().then(() => undefined);

/**
 * EHR/HIS events that keep the centers catalog. Upserts and deletes are idempotent by id. A
 * center upsert or delete is one statement, atomic by itself: no BEGIN and COMMIT round trips;
 * a service upsert checks its center first, so it keeps its transaction.
 */
export const catalogEventTypes: InboundEventType[] = [
  {
    source: 'ehr',
    type: 'center.upserted',
    data: centerSchema,
    process: (deps, event) => applyOnce(() => upsertCenter(deps.pool, event.data)),
    processMany: (deps, events) =>
      upsertCenters(
        deps.pool,
        events.map((e) => e.data),
      ),
  },
  {
    source: 'ehr',
    type: 'center.deleted',
    data: byId,
    process: (deps, event) => applyOnce(() => deleteCenter(deps.pool, event.data)),
  },
  {
    source: 'ehr',
    type: 'service.upserted',
    data: serviceSchema,
    process: (deps, event) => applyOnce(() => withTransaction(deps.pool, (tx) => upsertService(tx, event.data))),
  },
  {
    source: 'ehr',
    type: 'service.deleted',
    data: byId,
    process: (deps, event) => applyOnce(() => deleteService(deps.pool, event.data)),
  },
];
