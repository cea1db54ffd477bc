import { createHash } from 'node:crypto';
import type { Pool, PoolClient } from '../../db/pool.js';
import { withTransaction } from '../../db/transaction.js';
import { canonicalJson } from '../../lib/canonical-json.js';
import { AppError, badRequest } from '../../lib/errors.js';
import { claimIdempotencyKey, findIdempotencyRecord, storeIdempotentAnswer, type IdempotencyKeyRef } from './idempotency.repo.js';

const sha256 = (value: string) => createHash('sha256').update(value).digest('hex');

export interface IdempotentAnswer {
  status: number;
  body: unknown;
  resourceId?: string;
  /** True when the answer is the stored one of an earlier request with the same key. */
  replayed: boolean;
}

/** What idempotent() needs of a request: its headers and body, as sent. */
export interface IdempotentRequest {
  /** The `Idempotency-Key` header, when sent. */
  key: string | undefined;
  /** The caller's credential (the `X-Api-Key` header); only its hash is kept. */
  apiKey: string | undefined;
  /** The route the key is scoped to. */
  route: string;
  body: unknown;
}

/**
 * Runs `create` in one transaction guarded by the request's `Idempotency-Key` (if any). Keys are
 * scoped by the API key (its hash) and the route. The same key with the same body returns the
 * first answer and creates nothing; with a different body it is 422. Only successful answers are
 * stored: a request refused by validation never reaches this and may be retried with the key.
 */
export async function idempotent(
  pool: Pool,
  request: IdempotentRequest,
  create: (tx: PoolClient) => Promise<{ status: number; body: unknown; resourceId?: string }>,
): Promise<IdempotentAnswer> {
  const { key, route } = request;
  if (key === undefined) return { ...(await withTransaction(pool, create)), replayed: false };
  if (!key.trim() || key.length > 255) throw badRequest('Idempotency-Key header must be 1 to 255 characters');

  const ref: IdempotencyKeyRef = { scope: sha256(request.apiKey ?? ''), route, key };
  const requestHash = sha256(canonicalJson(request.body ?? {}));
  return withTransaction(pool, async (tx) => {
    if (!(await claimIdempotencyKey(tx, ref, requestHash))) {
      const stored = await findIdempotencyRecord(tx, ref);
      if (!stored) throw new AppError(409, 'Idempotency-Key is in use by a request that has not finished; retry');
      if (stored.requestHash !== requestHash) {
        throw new AppError(422, 'Idempotency-Key was already used with a different request body');
      }
      return { status: stored.status, body: stored.body, replayed: true };
    }
    const answer = await create(tx);
    await storeIdempotentAnswer(tx, ref, answer);
    return { ...answer, replayed: false };
  });
}
