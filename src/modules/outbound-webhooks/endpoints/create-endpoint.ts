import { randomUUID } from 'node:crypto';
import type { Request, Response } from 'express';
import { z } from 'zod';
import type { Config } from '../../../config.js';
import type { Pool } from '../../../db/pool.js';
import { withTransaction } from '../../../db/transaction.js';
import { NOTE_EVENTS } from '../../../outbound-events/note-signoff.js';
import { bodyObject, parseWith } from '../../../http/validate.js';
import { badRequest, forbidden, unprocessable } from '../../../lib/errors.js';
import { isPrintable } from '../../../lib/printable-id.js';
import type { SecretBox } from '../../../lib/secret-box.js';
import { generateWebhookSecret } from '../../../lib/webhook-secret.js';
import { ENDPOINT_KINDS, type OutboundTransports } from '../transport/outbound-transport.js';
import { outboundRules } from '../transport/ssrf-guard.js';
import { OUTBOUND_EVENT_TYPES } from '../../../outbound-events/outbound-event-types.js';
import type { EndpointOwner } from './endpoint-owner.js';
import { insertEndpoint, lockAndCountGroupEndpoints } from './webhook-endpoints.repo.js';

export const createEndpointBody = z.strictObject({
  url: z.string().min(1).max(2048),
  events: z.array(z.enum(OUTBOUND_EVENT_TYPES)).optional().default([]),
  group_id: z.string().trim().min(1).max(256).nullable().optional(),
  description: z.string().max(1000).nullable().optional(),
  thin: z.boolean().optional().default(false),
  // DESIGN "Hospital protocols": a signed JSON webhook, an HL7 v2 destination over MLLP, or a FHIR R4 server.
  kind: z.enum(ENDPOINT_KINDS).optional().default('webhook'),
  auth: z
    .strictObject({
      token_url: z.string().min(1).max(2048),
      client_id: z.string().trim().min(1).max(256),
      private_key: z.string().min(1).max(16_384),
      scope: z.string().trim().min(1).max(1000).optional(),
    })
    .optional(),
  // An hl7-mllp destination's MSH-5 and MSH-6 (DESIGN 2026-11-26).
  receiving_application: z.string().trim().min(1).max(227).refine(isPrintable, 'must be printable').optional(),
  receiving_facility: z.string().trim().min(1).max(227).refine(isPrintable, 'must be printable').optional(),
  // DESIGN "Delivery operations": order per patient, and pacing for receivers that cannot take bursts.
  ordering: z.enum(['none', 'patient']).optional().default('none'),
  max_per_second: z.number().int().min(1).max(10_000).nullable().optional(),
});

type EndpointBody = z.infer<typeof createEndpointBody>;

/** Refuses what a kind cannot take; returns the events to store (HL7 and FHIR destinations carry the note events only; empty: all three). */
function checkKind(body: EndpointBody): string[] {
  if (body.kind !== 'hl7-mllp' && (body.receiving_application || body.receiving_facility)) {
    throw badRequest('receiving_application and receiving_facility are for an hl7-mllp endpoint');
  }
  if (body.kind === 'webhook') {
    if (body.auth) throw badRequest('auth is only for a fhir endpoint');
    return body.events;
  }
  const noteEvents: readonly string[] = NOTE_EVENTS;
  if (body.events.some((e) => !noteEvents.includes(e))) {
    throw badRequest(`events: a ${body.kind} endpoint receives ${NOTE_EVENTS.join(', ')} only`);
  }
  if (body.thin) throw badRequest(`thin: a ${body.kind} endpoint needs the whole note`);
  if (body.kind === 'fhir' && !body.auth) throw badRequest('auth {token_url, client_id, private_key} is required for a fhir endpoint');
  if (body.kind === 'hl7-mllp' && body.auth) throw badRequest('auth is only for a fhir endpoint');
  return body.events.length ? body.events : [...NOTE_EVENTS];
}

/**
 * POST /api/v1/webhook-endpoints (operator key: any group, or none for operator-wide) and
 * POST /v1/webhook-endpoints (a group's token: always that group's): 201 with the endpoint and
 * its secret, which is never shown again and is stored sealed.
 */
export function createEndpoint(pool: Pool, config: Config, secrets: SecretBox, transports: OutboundTransports, owner: EndpointOwner) {
  return async (req: Request, res: Response) => {
    const body = parseWith(createEndpointBody, bodyObject(req.body));
    const ownGroup = owner(req);
    if (ownGroup !== undefined && body.group_id != null && body.group_id !== ownGroup) {
      throw forbidden('group_id must be the group of the token; an endpoint for another group or for every group needs an operator key');
    }
    const events = checkKind(body);
    // The kind's own check (transport-registry.ts): the destination (and a FHIR token URL) reachable under the SSRF rules, a FHIR key that signs RS384 or ES384.
    await transports.of(body.kind).checkDestination(body, outboundRules(config));
    const secret = generateWebhookSecret();
    const { private_key: privateKey, ...auth } = body.auth ?? { private_key: undefined };
    const groupId = ownGroup ?? body.group_id ?? null;
    const id = randomUUID();
    const endpoint = await withTransaction(pool, async (tx) => {
      // DESIGN "Fair share between groups": at most WEBHOOK_ENDPOINTS_PER_GROUP endpoints per group.
      if (groupId !== null && (await lockAndCountGroupEndpoints(tx, groupId)) >= config.WEBHOOK_ENDPOINTS_PER_GROUP) {
        throw unprocessable(
          `group ${groupId} already has ${config.WEBHOOK_ENDPOINTS_PER_GROUP} webhook endpoints (WEBHOOK_ENDPOINTS_PER_GROUP); delete one first`,
        );
      }
      return insertEndpoint(tx, {
        id,
        url: body.url,
        events: [...new Set(events)],
        kind: body.kind,
        auth: body.auth ? auth : null,
        // Sealed like the secret and never selected for display: shown to no one, not even now.
        authPrivateKey: privateKey ? secrets.seal(privateKey, { table: 'webhook_endpoints', column: 'auth_private_key', id }) : null,
        groupId,
        description: body.description ?? null,
        thin: body.thin,
        secret: secrets.seal(secret, { table: 'webhook_endpoints', column: 'secret', id }),
        allowPrivate: config.WEBHOOK_ALLOW_PRIVATE,
        ordering: body.ordering,
        maxPerSecond: body.max_per_second ?? null,
        receivingApplication: body.receiving_application ?? null,
        receivingFacility: body.receiving_facility ?? null,
      });
    });
    res.status(201).json({ ...endpoint, secret });
  };
}
