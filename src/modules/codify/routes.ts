import type { IRouter } from 'express';
import type { RouteDeps } from '../../app-deps.js';
import { audited } from '../../http/audit.js';
import { codifyRateLimit } from './codify-rate-limit.js';
import { createCodification } from './create-codification.js';
import { getCodification } from './get-codification.js';

export function codifyRoutes(router: IRouter, deps: RouteDeps): void {
  router.post('/v1/codify', ...deps.guards.clinical, codifyRateLimit(deps), createCodification(deps));
  router.get('/v1/codify/:runId', ...deps.guards.clinical, audited({ param: 'runId' }), getCodification(deps.pool));
}
