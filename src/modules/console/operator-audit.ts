import type { Request, Response } from 'express';
import type { Queryable } from '../../db/pool.js';
import { appendAudit } from '../audit/audit.repo.js';

/**
 * Kept only for replay-endpoint-dead.ts (moving to outbound-webhooks in a parallel change): the
 * console's other routes declare this row in routes.ts with auditedAtOnce (http/audit.ts), and
 * this file goes once that route does the same.
 */
export async function auditConsole(db: Queryable, req: Request, res: Response, operation: string, resourceId: string, status: number): Promise<void> {
  await appendAudit(db, {
    requestId: req.requestId,
    clientRequestId: req.clientRequestId,
    userId: req.apiKey?.name,
    operation: `console.${operation}`,
    resourceId,
    status,
  });
  res.locals.auditWritten = true;
}
