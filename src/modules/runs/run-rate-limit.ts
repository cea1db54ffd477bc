import type { RequestHandler } from 'express';
import type { AppDeps } from '../../app-deps.js';
import { groupUserRateLimit } from '../../http/group-user-rate-limit.js';

/** RUN_RATE_LIMIT run creations per 60 s per group and user, shared by all processes (DESIGN "Fair share between groups"). */
export function runRateLimit(deps: Pick<AppDeps, 'pool' | 'config'>): RequestHandler {
  return groupUserRateLimit(deps.pool, { prefix: 'runs:', limit: deps.config.RUN_RATE_LIMIT, what: 'run creations' });
}
