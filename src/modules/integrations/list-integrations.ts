import type { Request, Response } from 'express';
import type { Queryable } from '../../db/pool.js';
import { listIntegrations } from './integrations.repo.js';

/** GET /api/v1/integrations: those in force, newest first, never a secret. */
export function listIntegrationsHandler(db: Queryable) {
  return async (_req: Request, res: Response) => {
    res.json(await listIntegrations(db));
  };
}
