import type { IRouter } from 'express';
import type { RouteDeps } from '../../app-deps.js';
import { audited } from '../../http/audit.js';
import { integrationSender } from '../integrations/integration-sender.js';
import { getEvent } from './get-event.js';
import { receiveSignedEvent } from './receive-event.js';
import { retryEvent } from './retry-event.js';

export function inboundEventsRoutes(router: IRouter, { pool, boss, config, secrets, guards, direct }: RouteDeps): void {
  // The deployment-wide senders' events: the busiest path, answered without Express (direct-routes.ts).
  direct.post(
    router,
    '/api/v1/webhooks/ehr',
    receiveSignedEvent('ehr', pool, () => config.EHR_WEBHOOK_SECRET),
  );
  direct.post(
    router,
    '/api/v1/webhooks/voice',
    receiveSignedEvent('voice', pool, () => config.VOICE_WEBHOOK_SECRET),
  );
  // After a rotation both the new and the previous secret verify, until the previous one expires.
  const ownSecret = (req: { integration?: { secret: string; previousSecret?: string } }) =>
    [req.integration!.secret, req.integration!.previousSecret].filter((s): s is string => Boolean(s));
  router.post('/api/v1/webhooks/ehr/:integrationId', integrationSender('ehr', pool, secrets), receiveSignedEvent('ehr', pool, ownSecret));
  router.post(
    '/api/v1/webhooks/voice/:integrationId',
    integrationSender('voice', pool, secrets),
    receiveSignedEvent('voice', pool, ownSecret),
  );
  router.get('/api/v1/webhooks/events/:id', ...guards.operator, audited({ param: 'id' }), getEvent(pool));
  router.post('/api/v1/webhooks/events/:id/retry', ...guards.operator, audited({ param: 'id' }), retryEvent(pool, boss));
}
