import type { IRouter } from 'express';
import type { RouteDeps } from '../../app-deps.js';
import { audited } from '../../http/audit.js';
import { listDeliveriesHandler } from './deliveries/list-deliveries.js';
import { replayDeliveryHandler } from './deliveries/replay-delivery.js';
import { createEndpoint } from './endpoints/create-endpoint.js';
import { deleteEndpoint } from './endpoints/delete-endpoint.js';
import { enableEndpointHandler } from './endpoints/enable-endpoint.js';
import { groupOwner, operatorOwner } from './endpoints/endpoint-owner.js';
import { listEndpointsHandler } from './endpoints/list-endpoints.js';
import { rotateSecret } from '../secrets/rotate-secret.js';

const byId = audited({ param: 'id' });
const created = audited({ created: { body: 'id' } });

/** Webhook endpoints: an operator's (any group, or every group) and a hospital group's own. */
export function webhookEndpointsRoutes(router: IRouter, { pool, config, secrets, transports, guards }: RouteDeps): void {
  router.post('/api/v1/webhook-endpoints', ...guards.operator, created, createEndpoint(pool, config, secrets, transports, operatorOwner));
  router.get('/api/v1/webhook-endpoints', ...guards.operator, listEndpointsHandler(pool, operatorOwner));
  router.delete('/api/v1/webhook-endpoints/:id', ...guards.operator, byId, deleteEndpoint(pool, operatorOwner));
  router.post('/api/v1/webhook-endpoints/:id/enable', ...guards.operator, byId, enableEndpointHandler(pool));
  router.post(
    '/api/v1/webhook-endpoints/:id/rotate-secret',
    ...guards.operator,
    byId,
    rotateSecret(pool, secrets, 'webhook_endpoints', operatorOwner),
  );
  // A hospital group's own subscriptions, with its bearer token: its group's events only.
  router.post('/v1/webhook-endpoints', ...guards.clinical, created, createEndpoint(pool, config, secrets, transports, groupOwner));
  router.get('/v1/webhook-endpoints', ...guards.clinical, listEndpointsHandler(pool, groupOwner));
  router.delete('/v1/webhook-endpoints/:id', ...guards.clinical, byId, deleteEndpoint(pool, groupOwner));
  router.post(
    '/v1/webhook-endpoints/:id/rotate-secret',
    ...guards.clinical,
    byId,
    rotateSecret(pool, secrets, 'webhook_endpoints', groupOwner),
  );
}

/** Deliveries: an endpoint's log and a replay, for an operator and for the endpoint's group. */
export function webhookDeliveriesRoutes(router: IRouter, { pool, boss, guards }: RouteDeps): void {
  router.get('/api/v1/webhook-endpoints/:id/deliveries', ...guards.operator, byId, listDeliveriesHandler(pool, operatorOwner));
  router.post('/api/v1/webhook-deliveries/:id/replay', ...guards.operator, byId, replayDeliveryHandler({ pool, boss }, operatorOwner));
  router.get('/v1/webhook-endpoints/:id/deliveries', ...guards.clinical, byId, listDeliveriesHandler(pool, groupOwner));
  router.post('/v1/webhook-deliveries/:id/replay', ...guards.clinical, byId, replayDeliveryHandler({ pool, boss }, groupOwner));
}
