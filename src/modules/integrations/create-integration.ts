import { randomUUID } from 'node:crypto';
import type { Request, Response } from 'express';
import { z } from 'zod';
import type { Queryable } from '../../db/pool.js';
import { bodyObject, parseWith } from '../../http/validate.js';
import { isNetwork } from '../../lib/network.js';
import type { SecretBox } from '../../lib/secret-box.js';
import { generateWebhookSecret } from '../../lib/webhook-secret.js';
import { insertIntegration } from './integrations.repo.js';

const text = (max: number) => z.string().trim().min(1).max(max);

/** SHA-256 of a certificate as 64 hex digits, colons optional; stored as Node reports it (`AB:CD:...`). */
const fingerprint = z
  .string()
  .trim()
  .transform((v) => v.replace(/:/g, '').toUpperCase())
  .refine((v) => /^[0-9A-F]{64}$/.test(v), 'must be the SHA-256 fingerprint of a certificate (64 hex digits, colons optional)')
  .transform((v) => v.match(/../g)!.join(':'));

export const createIntegrationBody = z
  .strictObject({
    name: text(200),
    source: z.enum(['ehr', 'voice', 'hl7']),
    group_ids: z.array(text(256)).min(1).max(1000),
    // HL7 senders are matched on MSH-3 and MSH-4 and on the peer (DESIGN "Hospital protocols", 2026-11-26).
    sending_application: text(227).optional(),
    sending_facility: text(227).optional(),
    allowed_ips: z.array(z.string().trim().refine(isNetwork, 'must be an IP address or a CIDR')).min(1).max(100).optional(),
    tls_client_fingerprint: fingerprint.optional(),
    facility_groups: z.record(text(227), text(256)).optional(),
    identifier_systems: z.record(text(227), z.url().max(500)).optional(),
  })
  .refine((b) => b.source !== 'hl7' || (b.sending_application && b.sending_facility), {
    message: 'an hl7 integration needs sending_application and sending_facility',
    path: ['sending_application'],
  })
  .refine((b) => b.source !== 'hl7' || b.allowed_ips, {
    message: 'an hl7 integration needs allowed_ips: the addresses (IPs or CIDRs) its MLLP connections come from',
    path: ['allowed_ips'],
  })
  .refine(
    (b) =>
      b.source === 'hl7' ||
      (b.allowed_ips ?? b.tls_client_fingerprint ?? b.facility_groups ?? b.identifier_systems ?? b.sending_application) === undefined,
    { message: 'only an hl7 integration takes sending_application, allowed_ips and the other MLLP settings', path: ['source'] },
  )
  .refine((b) => Object.values(b.facility_groups ?? {}).every((g) => b.group_ids.includes(g)), {
    message: 'every facility_groups value must be one of group_ids',
    path: ['facility_groups'],
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
      allowedIps: body.allowed_ips ?? null,
      tlsClientFingerprint: body.tls_client_fingerprint ?? null,
      facilityGroups: body.facility_groups ?? null,
      identifierSystems: body.identifier_systems ?? null,
    });
    res.status(201).json({ ...integration, secret });
  };
}
