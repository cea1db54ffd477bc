import type { IRouter } from 'express';
import type { RouteDeps } from '../../app-deps.js';
import { audited } from '../../http/audit.js';
import { createCall } from './create-call.js';
import { getCall } from './get-call.js';

export function callsRoutes(router: IRouter, { pool, boss, guards }: RouteDeps): void {
  router.post('/api/v1/calls/external-questionnaire', ...guards.voice, audited({ created: { body: 'callId' } }), createCall(pool, boss));
  router.get('/api/v1/calls/:callId', ...guards.voice, audited({ param: 'callId' }), getCall(pool));
}
