import { Router } from 'express';
import type { RouteDeps } from '../../app-deps.js';
import { createEndpoint } from './create-endpoint.js';
import { deleteEndpoint } from './delete-endpoint.js';
import { enableEndpointHandler } from './enable-endpoint.js';
import { listEndpointsHandler } from './list-endpoints.js';
import { groupOwner, operatorOwner } from './owner.js';

export function webhookEndpointsRouter({ pool, config, secrets, guards }: RouteDeps): Router {
  const router = Router();
  router.post('/api/v1/webhook-endpoints', ...guards.operator, createEndpoint(pool, config, secrets, operatorOwner));
  router.get('/api/v1/webhook-endpoints', ...guards.operator, listEndpointsHandler(pool, operatorOwner));
  router.delete('/api/v1/webhook-endpoints/:id', ...guards.operator, deleteEndpoint(pool, operatorOwner));
  router.post('/api/v1/webhook-endpoints/:id/enable', ...guards.operator, enableEndpointHandler(pool));
  // A hospital group's own subscriptions, with its bearer token: its group's events only.
  router.post('/v1/webhook-endpoints', ...guards.clinical, createEndpoint(pool, config, secrets, groupOwner));
  router.get('/v1/webhook-endpoints', ...guards.clinical, listEndpointsHandler(pool, groupOwner));
  router.delete('/v1/webhook-endpoints/:id', ...guards.clinical, deleteEndpoint(pool, groupOwner));
  return router;
}
