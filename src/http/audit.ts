import type { Request, RequestHandler, Response } from 'express';
import type { AuditLog } from '../lib/audit-entry.js';
import type { FinishObserver } from './observe-requests.js';
import { header, requestPath, type PlainResponse } from './request-types.js';

/**
 * Which resource a route's audit row names, declared once in its routes.ts (after the guards,
 * just before the handler: a request a guard refused records the path's `id` as before):
 *   router.get('/v1/clinical-notes/:id', ...guards.clinical, audited({ param: 'id' }), getNote(pool))
 *   router.post('/v1/clinical-notes', ...guards.clinical, audited({ created: { body: 'id' } }), createNote(pool))
 */
export interface AuditDeclaration {
  /** The path parameter that names the resource; recorded whatever the outcome. */
  param?: string;
  /**
   * Where a successful (2xx) answer names the resource it created, which then wins over `param`:
   * a field of the JSON body (dotted: `transcription.id`), or a header whose URL ends with the id.
   */
  created?: { body: string } | { header: string };
}

/** The resource id of this request, worked out when its audit row is written. */
type ResourceOf = () => string | undefined;

const asId = (value: unknown) => (typeof value === 'string' ? value : undefined);

function field(body: unknown, path: string): string | undefined {
  let value: unknown = body;
  for (const key of path.split('.')) value = value && typeof value === 'object' ? (value as Record<string, unknown>)[key] : undefined;
  return asId(value);
}

function lastSegment(url: unknown): string | undefined {
  return typeof url === 'string' ? url.slice(url.lastIndexOf('/') + 1) || undefined : undefined;
}

/** The resource a declaration names for this request (reads the JSON body when it must). */
function resourceOf(decl: AuditDeclaration, req: Request, res: Response): ResourceOf {
  const fromParam = decl.param ? asId(req.params[decl.param]) : undefined;
  const created = decl.created;
  if (!created) return () => fromParam;
  if ('header' in created) {
    return () => (res.statusCode < 300 ? lastSegment(res.getHeader(created.header)) : undefined) ?? fromParam;
  }
  let body: unknown;
  const json = res.json.bind(res);
  res.json = (sent: unknown) => {
    body = sent;
    return json(sent);
  };
  return () => (res.statusCode < 300 ? field(body, created.body) : undefined) ?? fromParam;
}

/** The route's audit declaration (see AuditDeclaration); the row itself is written by auditTrail. */
export function audited(decl: AuditDeclaration): RequestHandler {
  return (req, res, next) => {
    res.locals.auditResource = resourceOf(decl, req, res);
    next();
  };
}

/**
 * For a handler that learns its resource id part-way and must record it even when it then fails
 * (codify's new run id, an inbound event's id once validated). Prefer `audited` in routes.ts.
 */
export function auditResource(res: PlainResponse, id: string): void {
  res.locals.auditResourceId = id;
}

/**
 * For a read of the audit trail: the filters it searched with go on its row, and the patient it
 * searched for is the row's patient (so a search for a patient is found by that patient).
 */
export function auditSearch(res: PlainResponse, filters: Record<string, unknown>, patient?: string): void {
  res.locals.auditFilters = filters;
  if (patient !== undefined) res.locals.auditPatient = patient;
}

/**
 * An operator's console view or action: its row (operation as declared, the operator key's name
 * or fingerprint, the path's id, the answer's status) is written before the answer is sent, so
 * the operator sees it recorded and a view is never shown unrecorded (a failed write answers
 * through the error handler instead). It is then the request's one row. A 5xx answer is left to
 * auditTrail's usual row.
 */
export function auditedAtOnce(log: Pick<AuditLog, 'writeNow'>, decl: { param: string; operation: string }): RequestHandler {
  return (req, res, next) => {
    const resourceId = asId(req.params[decl.param]);
    const end = res.end.bind(res) as (...args: unknown[]) => Response;
    let writing = false;
    res.end = ((...args: unknown[]) => {
      if (writing || res.statusCode >= 500) return end(...args);
      writing = true;
      const row = {
        requestId: req.requestId,
        clientRequestId: req.clientRequestId,
        userId: req.apiKey?.name,
        resourceId,
        status: res.statusCode,
      };
      log.writeNow({ ...row, operation: decl.operation }).then(
        () => {
          res.locals.auditWritten = true;
          end(...args);
        },
        (err: unknown) => next(err),
      );
      return res;
    }) as Response['end'];
    next();
  };
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
 * The resource is the route's declaration (audited), else the path's `id` or `threadId`.
 */
export function auditTrail(writer: Pick<AuditLog, 'add'>, prefixes: readonly string[]): FinishObserver {
  const audited = underAny(prefixes);
  return (req, res, { route }) => {
    if (!audited(requestPath(req))) return;
    if (res.locals.auditWritten) return;
    const declared = res.locals.auditResource as ResourceOf | undefined;
    const resourceId = res.locals.auditResourceId ?? declared?.() ?? req.params?.id ?? req.params?.threadId;
    writer.add({
      at: new Date(),
      requestId: req.requestId,
      clientRequestId: req.clientRequestId,
      // The bearer's user, else the API key's name or fingerprint (never the key), else the inbound integration.
      userId: req.principal?.userId ?? req.apiKey?.name ?? (req.integration ? `integration:${req.integration.id}` : undefined),
      groupId: req.principal?.groupId,
      doctor: req.doctor ?? header(req, 'x-doctor')?.slice(0, 256),
      // The resource's own patient, when it has one, is put in place of this when the row is stored.
      patient: (res.locals.auditPatient as string | undefined) ?? req.patient,
      operation: `${req.method} ${route}`,
      resourceId: typeof resourceId === 'string' ? resourceId : undefined,
      status: res.statusCode,
      filters: res.locals.auditFilters as Record<string, unknown> | undefined,
    });
  };
}
