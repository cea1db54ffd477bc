import { randomUUID } from 'node:crypto';
import type { Request, Response } from 'express';
import { z } from 'zod';
import type { Config } from '../../config.js';
import type { Queryable } from '../../db/pool.js';
import { auditResource } from '../../http/audit.js';
import { bodyObject, parseWith } from '../../http/validate.js';
import { badRequest, forbidden } from '../../lib/errors.js';
import type { SecretBox } from '../../lib/secret-box.js';
import { generateWebhookSecret } from '../../webhooks/signing.js';
import { resolveTarget, SsrfError } from '../../webhooks/ssrf-guard.js';
import { OUTBOUND_EVENT_TYPES } from './event-types.js';
import type { EndpointOwner } from './owner.js';
import { insertEndpoint } from './webhook-endpoints.repo.js';

export const createEndpointBody = z.strictObject({
  url: z.string().min(1).max(2048),
  events: z.array(z.enum(OUTBOUND_EVENT_TYPES)).optional().default([]),
  group_id: z.string().trim().min(1).max(256).nullable().optional(),
  description: z.string().max(1000).nullable().optional(),
  thin: z.boolean().optional().default(false),
});

/**
 * POST /api/v1/webhook-endpoints (operator key: any group, or none for operator-wide) and
 * POST /v1/webhook-endpoints (a group's token: always that group's): 201 with the endpoint and
 * its secret, which is never shown again and is stored sealed.
 */
export function createEndpoint(db: Queryable, config: Config, secrets: SecretBox, owner: EndpointOwner) {
  return async (req: Request, res: Response) => {
    const body = parseWith(createEndpointBody, bodyObject(req.body));
    const ownGroup = owner(req);
    if (ownGroup !== undefined && body.group_id != null && body.group_id !== ownGroup) {
      throw forbidden('group_id must be the group of the token; an endpoint for another group or for every group needs an operator key');
    }
    try {
      await resolveTarget(body.url, config.WEBHOOK_ALLOW_PRIVATE);
    } catch (err) {
      if (err instanceof SsrfError) throw badRequest(`url: ${err.message}`);
      throw err;
    }
    const secret = generateWebhookSecret();
    const endpoint = await insertEndpoint(db, {
      id: randomUUID(),
      url: body.url,
      events: [...new Set(body.events)],
      groupId: ownGroup ?? body.group_id ?? null,
      description: body.description ?? null,
      thin: body.thin,
      secret: secrets.seal(secret),
      allowPrivate: config.WEBHOOK_ALLOW_PRIVATE,
    });
    auditResource(res, endpoint.id);
    res.status(201).json({ ...endpoint, secret });
  };
}
