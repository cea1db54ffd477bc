import { randomUUID } from 'node:crypto';
import type { Request, Response } from 'express';
import type { Pool } from '../../db/pool.js';
import { auditResource } from '../../http/audit.js';
import { describeZodError, parseWith } from '../../http/validate.js';
import { derivedUuid } from '../../lib/derived-id.js';
import { unprocessable } from '../../lib/errors.js';
import { envelopeSchema, type WebhookSource } from './envelope.js';
import { eventTypeFor } from './event-types.js';
import { IngestBatcher } from './ingest-batcher.js';
import { requireBoundGroup } from './sender-binding.js';

/**
 * The stored row's id: derived from source and sender id (and the integration, whose ids are its
 * own), so both copies of a duplicate agree on it.
 */
export const inboundRowId = (source: WebhookSource, eventId: string, integrationId?: string) =>
  integrationId ? derivedUuid('inbound', source, integrationId, eventId) : derivedUuid('inbound', source, eventId);

/**
 * Verified (signedJsonBody ran first), validated, checked against the integration's groups when
 * an integration sent it (403, nothing stored), stored and enqueued in one transaction (one
 * statement, shared with events that arrive at the same moment: ingest-batcher.ts), then 202.
 * The same sender id again answers 200 `{duplicate: true}`; a concurrent copy waits on the
 * unique key and sees the same.
 */
export function receiveEvent(source: WebhookSource, pool: Pool) {
  const ingest = new IngestBatcher(pool);
  return async (req: Request, res: Response) => {
    const envelope = parseWith(envelopeSchema, req.body);
    const eventType = eventTypeFor(source, envelope.type);
    if (!eventType) throw unprocessable(`Unknown ${source} event type ${envelope.type}`);
    const parsed = eventType.data.safeParse(envelope.data);
    if (!parsed.success) throw unprocessable(`data does not fit ${envelope.type}: ${describeZodError(parsed.error)}`);

    auditResource(res, envelope.id);
    if (req.integration) await requireBoundGroup(pool, req.integration, eventType, parsed.data);
    const id = inboundRowId(source, envelope.id, req.integration?.id);
    const stored = await ingest.store({
      id,
      source,
      eventId: envelope.id,
      type: envelope.type,
      occurredAt: envelope.occurred_at,
      groupId: eventType.groupId?.(parsed.data) ?? null,
      data: parsed.data,
      correlationId: randomUUID(),
      integrationId: req.integration?.id ?? null,
      sharedJob: eventType.processMany !== undefined,
    });
    if (!stored) {
      res.status(200).json({ duplicate: true, id: envelope.id });
      return;
    }
    res.status(202).json({ received: true, id: envelope.id });
  };
}
