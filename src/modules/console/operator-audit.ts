import type { Request, Response } from 'express';
import type { Queryable } from '../../db/pool.js';
import { auditWritten } from '../../http/audit.js';
import { appendAudit } from '../audit/audit.repo.js';

/**
 * The audit row of a console view or action (operation `console.<verb> <resource>`), written
 * before the answer so the operator sees it recorded; it is the request's one row (auditWritten).
 * The user is the operator key's name or fingerprint, as on every key request.
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
  auditWritten(res);
}
