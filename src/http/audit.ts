import type { RequestHandler, Response } from 'express';
import type { Queryable } from '../db/pool.js';
import type { Logger } from '../lib/logger.js';
import { appendAudit } from '../modules/audit/audit.repo.js';
import { routeName } from './route-name.js';

/** Handlers name the resource they touched; the audit row carries its id. */
export function auditResource(res: Response, id: string): void {
  res.locals.auditResourceId = id;
}

/**
 * One append-only audit row per operation once the answer is sent, successes and failures
 * alike: who (user, group, doctor, patient), what (operation, resource id), outcome (status).
 */
export function auditTrail(db: Queryable, logger: Logger): RequestHandler {
  return (req, res, next) => {
    res.on('finish', () => {
      const resourceId = res.locals.auditResourceId ?? req.params?.id ?? req.params?.threadId;
      appendAudit(db, {
        requestId: req.requestId,
        userId: req.principal?.userId,
        groupId: req.principal?.groupId,
        doctor: req.doctor ?? req.get('x-doctor')?.slice(0, 256),
        patient: req.patient,
        operation: `${req.method} ${routeName(req)}`,
        resourceId: typeof resourceId === 'string' ? resourceId : undefined,
        status: res.statusCode,
      }).catch((err: Error) => logger.error('audit write failed', { request_id: req.requestId, error_name: err.name }));
    });
    next();
  };
}
