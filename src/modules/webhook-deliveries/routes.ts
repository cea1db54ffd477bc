import { Router } from 'express';
import type { RouteDeps } from '../../app-deps.js';
import { groupOwner, operatorOwner } from '../webhook-endpoints/owner.js';
import { listDeliveriesHandler } from './list-deliveries.js';
import { replayDelivery } from './replay-delivery.js';

export function webhookDeliveriesRouter({ pool, boss, guards }: RouteDeps): Router {
  const router = Router();
  router.get('/api/v1/webhook-endpoints/:id/deliveries', ...guards.operator, listDeliveriesHandler(pool, operatorOwner));
  router.post('/api/v1/webhook-deliveries/:id/replay', ...guards.operator, replayDelivery(pool, boss, operatorOwner));
  router.get('/v1/webhook-endpoints/:id/deliveries', ...guards.clinical, listDeliveriesHandler(pool, groupOwner));
  router.post('/v1/webhook-deliveries/:id/replay', ...guards.clinical, replayDelivery(pool, boss, groupOwner));
  return router;
}
