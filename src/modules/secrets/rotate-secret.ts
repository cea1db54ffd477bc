import type { Request, Response } from 'express';
import { z } from 'zod';
import type { Pool } from '../../db/pool.js';
import { withTransaction } from '../../db/transaction.js';
import { bodyObject, isUuid, parseWith } from '../../http/validate.js';
import { notFound } from '../../lib/errors.js';
import type { SecretBox } from '../../lib/secret-box.js';
import { generateWebhookSecret } from '../../lib/webhook-secret.js';
import { lockSecret, storeRotation, type RotatingTable } from './rotate-secret.repo.js';

export const rotateSecretBody = z.strictObject({
  // DESIGN "Delivery operations": the previous secret keeps working this long (default 24 h).
  expires_in_seconds: z
    .number()
    .int()
    .min(0)
    .max(30 * 86_400)
    .optional()
    .default(86_400),
});

const NAMES: Record<RotatingTable, string> = { integrations: 'Integration', webhook_endpoints: 'Webhook endpoint' };

/**
 * POST /api/v1/integrations/{id}/rotate-secret, POST /api/v1/webhook-endpoints/{id}/rotate-secret
 * and a group's POST /v1/webhook-endpoints/{id}/rotate-secret: a new secret (`whsec_` + 32 random
 * bytes), shown once in the 200 answer with `previous_expires_at`. Until then the previous secret
 * still verifies inbound posts (integrations) and still signs deliveries beside the new one
 * (endpoints). Both are stored sealed, each bound to its own column and row.
 */
export function rotateSecret(
  pool: Pool,
  secrets: SecretBox,
  table: RotatingTable,
  owner: (req: Request) => string | undefined = () => undefined,
) {
  return async (req: Request<{ id: string }>, res: Response) => {
    const { id } = req.params;
    const body = parseWith(rotateSecretBody, bodyObject(req.body));
    const secret = generateWebhookSecret();
    const previousExpiresAt = isUuid(id)
      ? await withTransaction(pool, async (tx) => {
          const current = await lockSecret(tx, table, id, owner(req));
          if (current === undefined) return undefined;
          const previous = secrets.open(current, { table, column: 'secret', id });
          const sealed = {
            secret: secrets.seal(secret, { table, column: 'secret', id }),
            previous: secrets.seal(previous, { table, column: 'previous_secret', id }),
          };
          return storeRotation(tx, table, id, sealed, body.expires_in_seconds);
        })
      : undefined;
    if (previousExpiresAt === undefined) throw notFound(NAMES[table], id);
    res.json({ id, secret, previous_expires_at: previousExpiresAt });
  };
}
