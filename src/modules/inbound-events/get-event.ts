import type { Request, Response } from 'express';
import type { Queryable } from '../../db/pool.js';
import { notFound } from '../../lib/errors.js';
import { findInboundEventsBySenderId, type StoredInboundEvent } from './inbound-events.repo.js';

/** What an operator may see of an event: ids, type, state and the pipeline's steps; never its data. */
export function publicEvent(e: StoredInboundEvent) {
  return {
    id: e.event_id,
    source: e.source,
    type: e.type,
    status: e.status,
    group_id: e.group_id,
    correlation_id: e.correlation_id,
    attempts: e.attempts,
    pipeline: e.pipeline,
    error: e.error,
    occurred_at: e.occurred_at,
    received_at: e.received_at,
    processed_at: e.processed_at,
  };
}

export function getEvent(db: Queryable) {
  return async (req: Request<{ id: string }>, res: Response) => {
    const { id } = req.params;
    const source = typeof req.query.source === 'string' ? req.query.source : undefined;
    const events = (await findInboundEventsBySenderId(db, id)).filter((e) => !source || e.source === source);
    if (events.length === 0) throw notFound('Event', id);
    res.json(publicEvent(events[0]));
  };
}
