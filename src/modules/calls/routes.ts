import { Router } from 'express';
import type { RouteDeps } from '../../app-deps.js';
import { createCall } from './create-call.js';
import { getCall } from './get-call.js';

export function callsRouter({ pool, boss, guards }: RouteDeps): Router {
  const router = Router();
  router.post('/api/v1/calls/external-questionnaire', ...guards.voice, createCall(pool, boss));
  router.get('/api/v1/calls/:callId', ...guards.voice, getCall(pool));
  return router;
}
