import type { IRouter } from 'express';
import type { RouteDeps } from '../../app-deps.js';
import { audited } from '../../http/audit.js';
import { createThread } from './create-thread.js';
import { getThread } from './get-thread.js';

export function threadsRoutes(router: IRouter, { pool, guards }: RouteDeps): void {
  router.post('/v1/agent/threads', ...guards.clinical, audited({ created: { body: 'thread_id' } }), createThread(pool));
  router.get('/v1/agent/threads/:threadId', ...guards.clinical, audited({ param: 'threadId' }), getThread(pool));
}
