import type { Request, Response } from 'express';
import type { Queryable } from '../../db/pool.js';
import { endpointHealth } from './console.repo.js';

/**
 * GET /api/v1/console/endpoints: outbound endpoints (disabled and failing first) with the last
 * day's attempt success rate, deliveries by state, the last error and the disabled reason.
 * URLs lose their query string (it may carry a token); secrets are never read.
 */
export function listEndpointHealth(db: Queryable) {
  return async (_req: Request, res: Response) => {
    res.set('cache-control', 'no-store').json(await endpointHealth(db));
  };
}
