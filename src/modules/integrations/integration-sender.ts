import type { RequestHandler } from 'express';
import type { Queryable } from '../../db/pool.js';
import { isUuid } from '../../http/validate.js';
import { unauthorized } from '../../lib/errors.js';
import type { SecretBox } from '../../lib/secret-box.js';
import { findActiveIntegration, type IntegrationSource } from './integrations.repo.js';

/**
 * Finds the integration named in the path (of this source, not revoked) before the body is
 * read: an unknown or revoked one is 401, like a wrong signature. Its secret then checks the
 * signature (readSignedJson) and its groups bound what it may write (receiveSignedEvent).
 */
export function integrationSender(source: IntegrationSource, db: Queryable, secrets: SecretBox): RequestHandler {
  return async (req, _res, next) => {
    const id = req.params.integrationId;
    const found = typeof id === 'string' && isUuid(id) ? await findActiveIntegration(db, id, source) : undefined;
    if (!found) throw unauthorized('Unknown or revoked integration');
    let secret: string;
    let previousSecret: string | undefined;
    try {
      secret = secrets.open(found.secret, { table: 'integrations', column: 'secret', id: found.id });
      if (found.previous_secret) {
        previousSecret = secrets.open(found.previous_secret, { table: 'integrations', column: 'previous_secret', id: found.id });
      }
    } catch {
      // Sealed under a key this process lacks, or moved from another row: it verifies nothing
      // (start-up logs the unreadable secrets for the operator).
      throw unauthorized('Unknown or revoked integration');
    }
    req.integration = { id: found.id, groupIds: found.group_ids, secret, previousSecret };
    next();
  };
}
