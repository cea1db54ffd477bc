import type { IRouter } from 'express';
import type { RouteDeps } from '../../app-deps.js';
import { audited } from '../../http/audit.js';
import { createIntegration } from './create-integration.js';
import { deleteIntegration } from './delete-integration.js';
import { listIntegrationsHandler } from './list-integrations.js';
import { rotateSecret } from '../secrets/rotate-secret.js';

export function integrationsRoutes(router: IRouter, { pool, secrets, guards }: RouteDeps): void {
  router.post('/api/v1/integrations', ...guards.operator, audited({ created: { body: 'id' } }), createIntegration(pool, secrets));
  router.get('/api/v1/integrations', ...guards.operator, listIntegrationsHandler(pool));
  router.delete('/api/v1/integrations/:id', ...guards.operator, audited({ param: 'id' }), deleteIntegration(pool));
  router.post(
    '/api/v1/integrations/:id/rotate-secret',
    ...guards.operator,
    audited({ param: 'id' }),
    rotateSecret(pool, secrets, 'integrations'),
  );
}
