import type { Request, RequestHandler } from 'express';
import { rateLimit } from 'express-rate-limit';
import type { Pool } from '../db/pool.js';
import { AppError } from '../lib/errors.js';
import { PostgresRateLimitStore } from './rate-limit-store.js';

const WINDOW_MS = 60_000;

export interface GroupUserLimit {
  /** Names the counter in the shared store (`codify:`, `runs:`). */
  prefix: string;
  /** Requests per 60 s window. */
  limit: number;
  /** What is counted, for the 429's details (`codify requests`, `run creations`). */
  what: string;
}

/**
 * `limit` requests per 60 s window per group and user (the token's `sub`), counted in PostgreSQL
 * so every process shares the limit; past it 429 with `Retry-After`. Runs after authentication:
 * the key needs both. Not `x-doctor`: the caller chooses that header, and rotating it would
 * bypass the limit.
 */
export function groupUserRateLimit(pool: Pool, { prefix, limit, what }: GroupUserLimit): RequestHandler {
  return rateLimit({
    windowMs: WINDOW_MS,
    limit,
    store: new PostgresRateLimitStore(pool, { prefix, windowMs: WINDOW_MS }),
    keyGenerator: (req: Request) => JSON.stringify([req.principal!.groupId, req.principal!.userId]),
    standardHeaders: 'draft-7',
    legacyHeaders: false,
    // The key is not an IP address: the IP checks of the library do not apply.
    validate: false,
    handler: (_req, res, next) => {
      const retryAfter = String(res.getHeader('Retry-After') ?? Math.ceil(WINDOW_MS / 1000));
      next(
        new AppError(429, `Rate limit of ${limit} ${what} per minute for this user exceeded; retry after ${retryAfter} s`, {
          'Retry-After': retryAfter,
        }),
      );
    },
  });
}
