import { randomUUID } from 'node:crypto';
import type { Request, Response } from 'express';
import { z } from 'zod';
import type { Queryable } from '../../db/pool.js';
import { bodyObject, parseWith } from '../../http/validate.js';
import type { SecretBox } from '../../lib/secret-box.js';
import { generateWebhookSecret } from '../../lib/webhook-secret.js';
import { insertIntegration } from './integrations.repo.js';

const text = (max: number) => z.string().trim().min(1).max(max);

export const createIntegrationBody = z
  .strictObject({
    name: text(200),
    source: z.enum(['ehr', 'voice', 'hl7']),
    group_ids: z.array(text(256)).min(1).max(1000),
    // HL7 senders are matched on MSH-3 and MSH-4 (DESIGN "Hospital protocols"); stored for the MLLP listener.
    sending_application: text(227).optional(),
    sending_facility: text(227).optional(),
  })
  .refine((b) => b.source !== 'hl7' || (b.sending_application && b.sending_facility), {
    message: 'an hl7 integration needs sending_application and sending_facility',
    path: ['sending_application'],
  });

/**
 * POST /api/v1/integrations (operator key): 201 with the integration and its own secret
 * (`whsec_` + base64 of 32 random bytes), shown only now and stored sealed.
 */
export function createIntegration(db: Queryable, secrets: SecretBox) {
  return async (req: Request, res: Response) => {
    const body = parseWith(createIntegrationBody, bodyObject(req.body));
    const secret = generateWebhookSecret();
    const id = randomUUID();
    const integration = await insertIntegration(db, {
      id,
      name: body.name,
      source: body.source,
      groupIds: [...new Set(body.group_ids)],
      secret: secrets.seal(secret, { table: 'integrations', column: 'secret', id }),
      sendingApplication: body.sending_application ?? null,
      sendingFacility: body.sending_facility ?? null,
    });
    res.status(201).json({ ...integration, secret });
  };
}
