import type { IRouter } from 'express';
import type { RouteDeps } from '../../app-deps.js';
import { listAuditEventsHandler } from './list-audit-events.js';

export function auditRoutes(router: IRouter, { pool, guards }: RouteDeps): void {
  router.get('/api/v1/audit-events', ...guards.operator, listAuditEventsHandler(pool));
}
