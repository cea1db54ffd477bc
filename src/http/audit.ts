import type { Response } from 'express';
import type { AuditWriter } from '../modules/audit/audit-writer.js';
import type { FinishObserver } from './observe-requests.js';

/** Handlers name the resource they touched; the audit row carries its id. */
export function auditResource(res: Response, id: string): void {
  res.locals.auditResourceId = id;
}

/**
 * For a handler that writes its own audit row at once (console views and actions, which the
 * operator waits to see recorded): the request-wide row is then not written, so each request
 * still leaves exactly one.
 */
export function auditWritten(res: Response): void {
  res.locals.auditWritten = true;
}

/** `/v1` covers `/v1` and `/v1/...`, never `/v1x`; case-insensitive, as Express routes are. */
function underAny(prefixes: readonly string[]): (path: string) => boolean {
  const lowered = prefixes.map((p) => p.toLowerCase());
  return (path) => {
    const p = path.toLowerCase();
    return lowered.some((prefix) => p === prefix || p.startsWith(`${prefix}/`));
  };
}

/**
 * One append-only audit row per operation under `prefixes` once the answer is sent, successes
 * and failures alike: who (user, group, doctor, patient), what (operation, resource id), outcome.
 */
export function auditTrail(writer: AuditWriter, prefixes: readonly string[]): FinishObserver {
  const audited = underAny(prefixes);
  return (req, res, { route }) => {
    const query = req.originalUrl.indexOf('?');
    if (!audited(query === -1 ? req.originalUrl : req.originalUrl.slice(0, query))) return;
    if (res.locals.auditWritten) return;
    const resourceId = res.locals.auditResourceId ?? req.params?.id ?? req.params?.threadId;
    writer.add({
      at: new Date(),
      requestId: req.requestId,
      clientRequestId: req.clientRequestId,
      // The bearer's user, else the API key's name or fingerprint (never the key), else the inbound integration.
      userId: req.principal?.userId ?? req.apiKey?.name ?? (req.integration ? `integration:${req.integration.id}` : undefined),
      groupId: req.principal?.groupId,
      doctor: req.doctor ?? req.get('x-doctor')?.slice(0, 256),
      patient: req.patient,
      operation: `${req.method} ${route}`,
      resourceId: typeof resourceId === 'string' ? resourceId : undefined,
      status: res.statusCode,
    });
  };
}
