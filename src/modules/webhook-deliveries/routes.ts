import { Router } from 'express';
import type { RouteDeps } from '../../app-deps.js';
import { listDeliveriesHandler } from './list-deliveries.js';
import { replayDelivery } from './replay-delivery.js';

export function webhookDeliveriesRouter({ pool, boss, guards }: RouteDeps): Router {
  const router = Router();
  router.get('/api/v1/webhook-endpoints/:id/deliveries', ...guards.operator, listDeliveriesHandler(pool));
  router.post('/api/v1/webhook-deliveries/:id/replay', ...guards.operator, replayDelivery(pool, boss));
  return router;
}
