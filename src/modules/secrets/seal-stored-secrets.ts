import type { Queryable } from '../../db/pool.js';
import type { Logger } from '../../lib/logger.js';
import type { SecretBox } from '../../lib/secret-box.js';
import { replaceValue, SEALED_COLUMNS, storedValues } from './stored-secrets.repo.js';

export interface ResealResult {
  /** Values now sealed under the current key (plain, enc:v1, or under a previous key before). */
  resealed: number;
  /** Values that open under none of the configured keys (left as they are). */
  unreadable: Array<{ table: string; column: string; id: string }>;
}

/**
 * Seals every stored secret under the current key in the current form (key id, bound to its
 * table, column and row): values stored unsealed, in the first form (enc:v1), or under a previous
 * key given for a rotation. Each value is swapped only if unchanged since it was read, so processes
 * doing this at once never lose a write. Nothing to do without a key.
 */
export async function resealStoredSecrets(db: Queryable, box: SecretBox): Promise<ResealResult> {
  const result: ResealResult = { resealed: 0, unreadable: [] };
  if (!box.encrypting) return result;
  for (const column of SEALED_COLUMNS) {
    for (const { id, value } of await storedValues(db, column)) {
      if (box.isCurrent(value)) continue;
      const place = { ...column, id };
      let plain: string;
      try {
        plain = box.open(value, place);
      } catch {
        result.unreadable.push(place);
        continue;
      }
      if (await replaceValue(db, column, id, value, box.seal(plain, place))) result.resealed++;
    }
  }
  return result;
}

/**
 * At start-up: re-seals what is not sealed under the current key (see resealStoredSecrets), so
 * values stored before encryption or before a rotation keep working and nothing stays in plain
 * text. Without a key (development or tests that set none) says once that secrets are stored
 * unencrypted; production refuses to start without one (config.ts).
 */
export async function sealStoredSecrets(db: Queryable, box: SecretBox, logger: Logger): Promise<number> {
  if (!box.encrypting) {
    logger.warn('SECRETS_ENCRYPTION_KEY is not set: webhook endpoint and integration secrets are stored unencrypted');
    return 0;
  }
  const { resealed, unreadable } = await resealStoredSecrets(db, box);
  if (resealed) logger.info('stored secrets sealed under the current key', { count: resealed, key_id: box.currentKeyId });
  if (unreadable.length) {
    logger.error('stored secrets sealed under a key that is not configured (set SECRETS_ENCRYPTION_PREVIOUS_KEYS)', {
      count: unreadable.length,
    });
  }
  return resealed;
}
