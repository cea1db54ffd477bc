import type { IRouter } from 'express';
import type { RouteDeps } from '../../app-deps.js';

/** Prometheus text exposition. Open like health: route patterns, queues and counts, never PHI. */
export function metricsRoutes(router: IRouter, { metrics }: RouteDeps): void {
  router.get('/metrics', async (_req, res) => {
    await metrics.refresh().catch(() => {}); // database down: the process metrics still answer
    res.set('content-type', metrics.registry.contentType).send(await metrics.registry.metrics());
  });
}
