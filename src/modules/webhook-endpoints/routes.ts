import { Router } from 'express';
import type { RouteDeps } from '../../app-deps.js';
import { createEndpoint } from './create-endpoint.js';
import { deleteEndpoint } from './delete-endpoint.js';
import { enableEndpointHandler } from './enable-endpoint.js';
import { listEndpointsHandler } from './list-endpoints.js';

export function webhookEndpointsRouter({ pool, config, guards }: RouteDeps): Router {
  const router = Router();
  router.post('/api/v1/webhook-endpoints', ...guards.operator, createEndpoint(pool, config));
  router.get('/api/v1/webhook-endpoints', ...guards.operator, listEndpointsHandler(pool));
  router.delete('/api/v1/webhook-endpoints/:id', ...guards.operator, deleteEndpoint(pool));
  router.post('/api/v1/webhook-endpoints/:id/enable', ...guards.operator, enableEndpointHandler(pool));
  return router;
}
