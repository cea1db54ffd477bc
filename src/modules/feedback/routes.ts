import type { IRouter } from 'express';
import type { RouteDeps } from '../../app-deps.js';
import { listFeedbackHandler } from './list-feedback.js';

export function feedbackRoutes(router: IRouter, { pool, guards }: RouteDeps): void {
  router.get('/api/v1/feedback', ...guards.operator, listFeedbackHandler(pool));
}
