import { Router } from 'express';
import type { RouteDeps } from '../../app-deps.js';

/** Prometheus text exposition. Open like health: route patterns, queues and counts, never PHI. */
export function metricsRouter({ metrics }: RouteDeps): Router {
  const router = Router();
  router.get('/metrics', async (_req, res) => {
    await metrics.refresh().catch(() => {}); // database down: the process metrics still answer
    res.set('content-type', metrics.registry.contentType).send(await metrics.registry.metrics());
  });
  return router;
}
