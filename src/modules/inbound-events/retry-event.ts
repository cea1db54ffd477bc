import type { Request, Response } from 'express';
import type { PgBoss } from 'pg-boss';
import type { Pool } from '../../db/pool.js';
import { withTransaction } from '../../db/transaction.js';
import { conflict, notFound } from '../../lib/errors.js';
import { publicEvent } from './get-event.js';
import type { InboundEventTypes } from './inbound-event-type.js';
import { inboundEventJob } from './inbound-event.job.js';
import { findInboundEvent, findInboundEventsBySenderId, isInboundEventRedacted, reopenFailedEvent } from './inbound-events.repo.js';

/**
 * POST /api/v1/webhooks/events/{id}/retry (the sender's id, `?source=` when both sources used
 * it): a failed event goes back to `received` and its job is queued again, in one transaction.
 * The event's handler resumes its work where it failed (a pipeline restarts its failed step). 202
 * with the event; an event that has not failed, or whose body was redacted (RETENTION_DAYS), is a 409.
 */
export function retryEvent(pool: Pool, boss: PgBoss, eventTypes: InboundEventTypes) {
  return async (req: Request<{ id: string }>, res: Response) => {
    const { id } = req.params;
    const source = typeof req.query.source === 'string' ? req.query.source : undefined;
    // A sender id is 1-200 characters (envelope.ts) and PostgreSQL text holds no NUL: others cannot exist.
    const possible = id.length <= 200 && !id.includes('\u0000');
    const [event] = possible ? (await findInboundEventsBySenderId(pool, id)).filter((e) => !source || e.source === source) : [];
    if (!event) throw notFound('Event', id);
    if (await isInboundEventRedacted(pool, event.id))
      throw conflict(`Event ${id}: its body was redacted after the retention period; it cannot be retried`);
    const reopened = await withTransaction(pool, async (tx) => {
      if (!(await reopenFailedEvent(tx, event.id))) return false;
      await inboundEventJob.send(boss, tx, { id: event.id });
      return true;
    });
    if (!reopened) throw conflict(`Event ${id} is ${event.status}; only a failed event can be retried`);
    res.status(202).json(await publicEvent(pool, eventTypes, (await findInboundEvent(pool, event.id))!));
  };
}
