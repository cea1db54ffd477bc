import type { Request, Response } from 'express';
import type { Queryable } from '../../db/pool.js';
import { notFound } from '../../lib/errors.js';
import type { InboundEventTypes } from './inbound-event-type.js';
import { findInboundEventsBySenderId, type StoredInboundEvent } from './inbound-events.repo.js';

/**
 * What an operator may see of an event: ids, type, state and the state of the work it started
 * (`pipeline`, as its type reports it: the documentation pipeline's step ids); never its data.
 */
export async function publicEvent(db: Queryable, eventTypes: InboundEventTypes, e: StoredInboundEvent) {
  const progress = eventTypes.find(e.source, e.type)?.progress;
  return {
    id: e.event_id,
    source: e.source,
    type: e.type,
    status: e.status,
    group_id: e.group_id,
    correlation_id: e.correlation_id,
    attempts: e.attempts,
    pipeline: progress ? await progress(db, e.id) : {},
    error: e.error,
    occurred_at: e.occurred_at,
    received_at: e.received_at,
    processed_at: e.processed_at,
  };
}

export function getEvent(db: Queryable, eventTypes: InboundEventTypes) {
  return async (req: Request<{ id: string }>, res: Response) => {
    const { id } = req.params;
    const source = typeof req.query.source === 'string' ? req.query.source : undefined;
    const events = (await findInboundEventsBySenderId(db, id)).filter((e) => !source || e.source === source);
    if (events.length === 0) throw notFound('Event', id);
    res.json(await publicEvent(db, eventTypes, events[0]));
  };
}
