import type { IRouter } from 'express';
import type { RouteDeps } from '../../app-deps.js';
import { audited } from '../../http/audit.js';
import { getEvent } from './get-event.js';
import { receiveSignedEvent } from './receive-event.js';
import { retryEvent } from './retry-event.js';

/** The deployment-wide senders' webhooks and the events' state. An integration's own webhooks: integrations/routes.ts. */
export function inboundEventsRoutes(router: IRouter, { pool, boss, config, guards, direct, eventTypes }: RouteDeps): void {
  // The deployment-wide senders' events: the busiest path, answered without Express (direct-routes.ts).
  direct.post(
    router,
    '/api/v1/webhooks/ehr',
    receiveSignedEvent('ehr', { pool, eventTypes }, () => config.EHR_WEBHOOK_SECRET),
  );
  direct.post(
    router,
    '/api/v1/webhooks/voice',
    receiveSignedEvent('voice', { pool, eventTypes }, () => config.VOICE_WEBHOOK_SECRET),
  );
  router.get('/api/v1/webhooks/events/:id', ...guards.operator, audited({ param: 'id' }), getEvent(pool, eventTypes));
  router.post('/api/v1/webhooks/events/:id/retry', ...guards.operator, audited({ param: 'id' }), retryEvent(pool, boss, eventTypes));
}
