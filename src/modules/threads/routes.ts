import { Router } from 'express';
import type { RouteDeps } from '../../app-deps.js';
import { createThread } from './create-thread.js';
import { getThread } from './get-thread.js';

export function threadsRouter({ pool, guards }: RouteDeps): Router {
  const router = Router();
  router.post('/v1/agent/threads', ...guards.clinical, createThread(pool));
  router.get('/v1/agent/threads/:threadId', ...guards.clinical, getThread(pool));
  return router;
}
