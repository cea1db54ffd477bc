import type { Request, RequestHandler } from 'express';
import { rateLimit } from 'express-rate-limit';
import type { AppDeps } from '../../app-deps.js';
import { PostgresRateLimitStore } from '../../http/rate-limit-store.js';
import { AppError } from '../../lib/errors.js';

const WINDOW_MS = 60_000;

/**
 * CODIFY_RATE_LIMIT requests per 60 s window per group and user (the token's `sub`), counted in
 * PostgreSQL so every process shares the limit. Runs after authentication: the key needs both.
 * Not `x-doctor`: the caller chooses that header, and rotating it would bypass the limit.
 */
export function codifyRateLimit(deps: AppDeps): RequestHandler {
  const limit = deps.config.CODIFY_RATE_LIMIT;
  return rateLimit({
    windowMs: WINDOW_MS,
    limit,
    store: new PostgresRateLimitStore(deps.pool, { prefix: 'codify:', windowMs: WINDOW_MS }),
    keyGenerator: (req: Request) => JSON.stringify([req.principal!.groupId, req.principal!.userId]),
    standardHeaders: 'draft-7',
    legacyHeaders: false,
    // The key is not an IP address: the IP checks of the library do not apply.
    validate: false,
    handler: (_req, res, next) => {
      const retryAfter = String(res.getHeader('Retry-After') ?? Math.ceil(WINDOW_MS / 1000));
      next(
        new AppError(429, `Rate limit of ${limit} codify requests per minute for this user exceeded; retry after ${retryAfter} s`, {
          'Retry-After': retryAfter,
        }),
      );
    },
  });
}
