import type { IRouter } from 'express';
import type { RouteDeps } from '../../app-deps.js';
import { audited } from '../../http/audit.js';
import { signedJsonBody } from '../../http/signed-body.js';
import { integrationSender } from '../integrations/integration-sender.js';
import { getEvent } from './get-event.js';
import { receiveEvent } from './receive-event.js';
import { retryEvent } from './retry-event.js';

export function inboundWebhooksRoutes(router: IRouter, { pool, boss, config, secrets, guards }: RouteDeps): void {
  router.post(
    '/api/v1/webhooks/ehr',
    signedJsonBody(() => config.EHR_WEBHOOK_SECRET),
    receiveEvent('ehr', pool),
  );
  router.post(
    '/api/v1/webhooks/voice',
    signedJsonBody(() => config.VOICE_WEBHOOK_SECRET),
    receiveEvent('voice', pool),
  );
  const ownSecret = signedJsonBody((req) => [req.integration!.secret]);
  router.post('/api/v1/webhooks/ehr/:integrationId', integrationSender('ehr', pool, secrets), ownSecret, receiveEvent('ehr', pool));
  router.post('/api/v1/webhooks/voice/:integrationId', integrationSender('voice', pool, secrets), ownSecret, receiveEvent('voice', pool));
  router.get('/api/v1/webhooks/events/:id', ...guards.operator, audited({ param: 'id' }), getEvent(pool));
  router.post('/api/v1/webhooks/events/:id/retry', ...guards.operator, audited({ param: 'id' }), retryEvent(pool, boss));
}
