import { createHash } from 'node:crypto';
import type { Request } from 'express';
import type { Queryable } from '../../db/pool.js';
import { appendAudit } from '../audit/audit.repo.js';

/** Which operator key acted, without the key: `operator:` and the first 12 hex of its SHA-256. */
export function operatorId(req: Request): string {
  return `operator:${createHash('sha256').update(req.get('x-api-key') ?? '').digest('hex').slice(0, 12)}`;
}

/**
 * An audit row for a console view or action (operation `console.<verb> <resource>`). The console
 * routes are not under the request-wide audit trail: its 5-second polls would flood the log
 * with reads that show no PHI, so only explicit views and actions are recorded, here.
 */
export async function auditConsole(db: Queryable, req: Request, operation: string, resourceId: string, status: number): Promise<void> {
  // The id comes from the path as given: PostgreSQL text refuses NUL, and a long one is not an id.
  const id = resourceId.replaceAll('\u0000', '').slice(0, 200);
  await appendAudit(db, { requestId: req.requestId, userId: operatorId(req), operation: `console.${operation}`, resourceId: id, status });
}
