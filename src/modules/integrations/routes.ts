import type { IRouter } from 'express';
import type { RouteDeps } from '../../app-deps.js';
import { audited } from '../../http/audit.js';
import { receiveSignedEvent } from '../inbound-events/receive-event.js';
import { createIntegration } from './create-integration.js';
import { deleteIntegration } from './delete-integration.js';
import { integrationSender } from './integration-sender.js';
import { listIntegrationsHandler } from './list-integrations.js';
import { rotateSecret } from '../secrets/rotate-secret.js';

export function integrationsRoutes(router: IRouter, { pool, secrets, guards, eventTypes }: RouteDeps): void {
  router.post('/api/v1/integrations', ...guards.operator, audited({ created: { body: 'id' } }), createIntegration(pool, secrets));
  router.get('/api/v1/integrations', ...guards.operator, listIntegrationsHandler(pool));
  router.delete('/api/v1/integrations/:id', ...guards.operator, audited({ param: 'id' }), deleteIntegration(pool));
  router.post(
    '/api/v1/integrations/:id/rotate-secret',
    ...guards.operator,
    audited({ param: 'id' }),
    rotateSecret(pool, secrets, 'integrations'),
  );
  // An integration's own webhooks: signed with its secret, bound to its groups (integration-sender.ts).
  // After a rotation both the new and the previous secret verify, until the previous one expires.
  const ownSecret = (req: { integration?: { secret: string; previousSecret?: string } }) =>
    [req.integration!.secret, req.integration!.previousSecret].filter((s): s is string => Boolean(s));
  const intake = { pool, eventTypes };
  router.post('/api/v1/webhooks/ehr/:integrationId', integrationSender('ehr', pool, secrets), receiveSignedEvent('ehr', intake, ownSecret));
  router.post(
    '/api/v1/webhooks/voice/:integrationId',
    integrationSender('voice', pool, secrets),
    receiveSignedEvent('voice', intake, ownSecret),
  );
}
