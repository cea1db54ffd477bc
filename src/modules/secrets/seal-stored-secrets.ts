import type { Queryable } from '../../db/pool.js';
import type { Logger } from '../../lib/logger.js';
import type { SecretBox } from '../../lib/secret-box.js';
import { replaceSecret, unsealedSecrets } from './stored-secrets.repo.js';

/**
 * At start-up: seals secrets stored before SECRETS_ENCRYPTION_KEY was set, so existing endpoints
 * and integrations keep working and nothing stays in plain text. Without a key, says once that
 * secrets are stored unencrypted (production that did not set one).
 */
export async function sealStoredSecrets(db: Queryable, box: SecretBox, logger: Logger): Promise<number> {
  if (!box.encrypting) {
    logger.warn('SECRETS_ENCRYPTION_KEY is not set: webhook endpoint and integration secrets are stored unencrypted');
    return 0;
  }
  const rows = await unsealedSecrets(db);
  for (const r of rows) await replaceSecret(db, r.place, r.id, r.secret, box.seal(r.secret));
  if (rows.length) logger.info('stored secrets encrypted', { count: rows.length });
  return rows.length;
}
