import { Router } from 'express';
import type { RouteDeps } from '../../app-deps.js';
import { getHealth } from './get-health.js';

export function healthRouter({ pool, engine }: RouteDeps): Router {
  const router = Router();
  router.get(
    '/api/v1/health',
    getHealth(pool, () => engine.name),
  );
  return router;
}
