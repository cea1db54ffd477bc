import { randomUUID } from 'node:crypto';
import type { Pool } from '../../db/pool.js';
import { auditResource } from '../../http/audit.js';
import type { PlainHandler, PlainRequest } from '../../http/request-types.js';
import { sendJson } from '../../http/send-json.js';
import { readSignedJson } from '../../http/signed-body.js';
import { describeZodError, parseWith } from '../../http/validate.js';
import { derivedUuid } from '../../lib/derived-id.js';
import { unauthorized, unprocessable } from '../../lib/errors.js';
import { envelopeSchema, type WebhookSource } from './envelope.js';
import type { InboundEventTypes } from './inbound-event-type.js';
import { IngestBatcher } from './ingest-batcher.js';
import { requireBoundGroup } from './sender-binding.js';

/**
 * The stored row's id: derived from source and sender id (and the integration, whose ids are its
 * own), so both copies of a duplicate agree on it.
 */
export const inboundRowId = (source: WebhookSource, eventId: string, integrationId?: string) =>
  integrationId ? derivedUuid('inbound', source, integrationId, eventId) : derivedUuid('inbound', source, eventId);

/**
 * A signed event: its signature checked against `secretsOf(req)` on the exact bytes
 * (readSignedJson), validated, checked against the integration's groups when an integration sent
 * it (403, nothing stored), stored and enqueued in one transaction (one statement, shared with
 * events that arrive at the same moment: ingest-batcher.ts), then 202. The same sender id again
 * answers 200 `{duplicate: true}`; a concurrent copy waits on the unique key and sees the same.
 * Uses Node's request and response alone: the deployment-wide senders' routes are answered
 * without Express (direct-routes.ts).
 */
export function receiveSignedEvent(
  source: WebhookSource,
  { pool, eventTypes }: { pool: Pool; eventTypes: InboundEventTypes },
  secretsOf: (req: PlainRequest) => readonly string[],
): PlainHandler {
  const ingest = new IngestBatcher(pool);
  return async (req, res) => {
    const body = await readSignedJson(req, secretsOf(req));
    const envelope = parseWith(envelopeSchema, body);
    const eventType = eventTypes.find(source, envelope.type);
    if (!eventType) throw unprocessable(`Unknown ${source} event type ${envelope.type}`);
    const parsed = eventType.data.safeParse(envelope.data);
    if (!parsed.success) throw unprocessable(`data does not fit ${envelope.type}: ${describeZodError(parsed.error)}`);

    auditResource(res, envelope.id);
    if (req.integration) await requireBoundGroup(pool, req.integration, eventType, parsed.data);
    const id = inboundRowId(source, envelope.id, req.integration?.id);
    const outcome = await ingest.store({
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
    // Revoked while its body was read: the storing statement refused it (inbound-events.repo.ts).
    if (outcome === 'revoked') throw unauthorized('Unknown or revoked integration');
    if (outcome === 'duplicate') sendJson(res, 200, { duplicate: true, id: envelope.id });
    else sendJson(res, 202, { received: true, id: envelope.id });
  };
}
