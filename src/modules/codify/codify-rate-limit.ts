import type { RequestHandler } from 'express';
import type { AppDeps } from '../../app-deps.js';
import { groupUserRateLimit } from '../../http/group-user-rate-limit.js';

/** CODIFY_RATE_LIMIT codify requests per 60 s per group and user, shared by all processes. */
export function codifyRateLimit(deps: Pick<AppDeps, 'pool' | 'config'>): RequestHandler {
  return groupUserRateLimit(deps.pool, { prefix: 'codify:', limit: deps.config.CODIFY_RATE_LIMIT, what: 'codify requests' });
}
