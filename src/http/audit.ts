import type { RequestHandler, Response } from 'express';
import type { Queryable } from '../db/pool.js';
import type { Logger } from '../lib/logger.js';
import { appendAuditBatch, type AuditEntry } from '../modules/audit/audit.repo.js';
import { routeName } from './route-name.js';

/** Handlers name the resource they touched; the audit row carries its id. */
export function auditResource(res: Response, id: string): void {
  res.locals.auditResourceId = id;
}

/** Rows per INSERT at most; a busier moment just takes several statements in a row. */
const MAX_BATCH = 500;

/**
 * Writes audit rows in batches: one statement for whatever finished while the previous one ran.
 * At low traffic a row is written as soon as its answer finishes (one row per statement); under
 * load this turns one INSERT and one commit per request into one per batch, off the hot path.
 */
class AuditWriter {
  private pending: Array<AuditEntry & { at: Date }> = [];
  private flushing = false;
  constructor(private readonly db: Queryable, private readonly logger: Logger) {}

  add(entry: AuditEntry & { at: Date }): void {
    this.pending.push(entry);
    if (!this.flushing) void this.flush();
  }

  private async flush(): Promise<void> {
    this.flushing = true;
    while (this.pending.length) {
      const batch = this.pending.splice(0, MAX_BATCH);
      try {
        await appendAuditBatch(this.db, batch);
      } catch (err) {
        this.logger.error('audit write failed', { request_ids: batch.map((e) => e.requestId), rows: batch.length, error_name: (err as Error).name });
      }
    }
    this.flushing = false;
  }
}

/**
 * One append-only audit row per operation once the answer is sent, successes and failures
 * alike: who (user, group, doctor, patient), what (operation, resource id), outcome (status).
 */
export function auditTrail(db: Queryable, logger: Logger): RequestHandler {
  const writer = new AuditWriter(db, logger);
  return (req, res, next) => {
    res.on('finish', () => {
      const resourceId = res.locals.auditResourceId ?? req.params?.id ?? req.params?.threadId;
      writer.add({
        at: new Date(),
        requestId: req.requestId,
        userId: req.principal?.userId,
        groupId: req.principal?.groupId,
        doctor: req.doctor ?? req.get('x-doctor')?.slice(0, 256),
        patient: req.patient,
        operation: `${req.method} ${routeName(req)}`,
        resourceId: typeof resourceId === 'string' ? resourceId : undefined,
        status: res.statusCode,
      });
    });
    next();
  };
}
