import { Router } from 'express';
import type { RouteDeps } from '../../app-deps.js';
import { listAuditEventsHandler } from './list-audit-events.js';

export function auditRouter({ pool, guards }: RouteDeps): Router {
  const router = Router();
  router.get('/api/v1/audit-events', ...guards.operator, listAuditEventsHandler(pool));
  return router;
}
