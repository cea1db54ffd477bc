import type { ErrorRequestHandler, RequestHandler } from 'express';
import { ZodError } from 'zod';
import { AppError, errorBody, reasonPhrase } from '../lib/errors.js';
import type { Logger } from '../lib/logger.js';
import type { PlainRequest, PlainResponse } from './request-types.js';
import { sendJson } from './send-json.js';
import { describeZodError } from './validate.js';

interface HttpishError {
  status?: number;
  statusCode?: number;
  type?: string;
  limit?: number;
  expose?: boolean;
  message?: string;
}

const CONNECTION_ERRNOS = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH']);
// admin_shutdown, crash_shutdown, cannot_connect_now, database_dropped... (class 08 is connection exceptions).
const UNAVAILABLE_SQLSTATES = new Set(['57P01', '57P02', '57P03', '53300']);
const CONNECTION_MESSAGES =
  /Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error|Connection ended unexpectedly/i;

/** The database cannot be reached right now (down, restarting, refusing): the request may be retried. */
function isDatabaseUnavailable(err: unknown): boolean {
  const e = err as { code?: unknown; message?: unknown; errors?: unknown[] } | null;
  if (!e || typeof e !== 'object') return false;
  const code = typeof e.code === 'string' ? e.code : '';
  if (CONNECTION_ERRNOS.has(code) || UNAVAILABLE_SQLSTATES.has(code) || /^08[0-9A-Z]{3}$/.test(code)) return true;
  if (typeof e.message === 'string' && CONNECTION_MESSAGES.test(e.message)) return true;
  // pg's connect() may reject with an AggregateError (one error per resolved address).
  return Array.isArray(e.errors) && e.errors.length > 0 && e.errors.every(isDatabaseUnavailable);
}

function isUnstorableText(err: unknown): boolean {
  const e = err as { code?: unknown; severity?: unknown } | null;
  return !!e && typeof e === 'object' && typeof e.severity === 'string' && (e.code === '22021' || e.code === '22P05');
}

function classify(err: unknown): { status: number; details: string; headers?: Record<string, string> } {
  if (err instanceof AppError) return { status: err.status, details: err.details, headers: err.headers };
  // Text PostgreSQL cannot store (a NUL byte, "\u0000" in JSON): the input is at fault, whichever field it is in.
  if (isUnstorableText(err)) return { status: 400, details: 'Input contains a character that cannot be stored (U+0000)' };
  if (isDatabaseUnavailable(err)) {
    return { status: 503, details: 'The database is unavailable; retry shortly', headers: { 'retry-after': '5' } };
  }
  if (err instanceof ZodError) return { status: 400, details: describeZodError(err) };
  const e = (err ?? {}) as HttpishError;
  if (e.type === 'entity.parse.failed') return { status: 400, details: 'Malformed JSON body' };
  if (e.type === 'entity.too.large') return { status: 413, details: `Request body exceeds the limit of ${e.limit} bytes` };
  if (e.type === 'encoding.unsupported' || e.type === 'charset.unsupported') {
    return { status: 415, details: 'Unsupported body encoding or charset' };
  }
  if (e.type === 'request.aborted') return { status: 400, details: 'Request was aborted' };
  const status = e.status ?? e.statusCode;
  if (typeof status === 'number' && status >= 400 && status < 500) {
    return { status, details: e.expose && e.message ? e.message : reasonPhrase(status) };
  }
  return { status: 500, details: 'An unexpected error occurred' };
}

/** Loggable description of an unexpected error: database errors by code only (their text can echo values). */
function describeUnexpected(err: unknown): Record<string, unknown> {
  const e = err as { name?: string; code?: string; routine?: string; severity?: string; stack?: string; message?: string };
  if (e?.severity && e.code) return { error_name: 'DatabaseError', error_code: e.code, routine: e.routine };
  return { error_name: e?.name, error_message: e?.message, stack: e?.stack };
}

export type ErrorAnswer = (err: unknown, req: PlainRequest, res: PlainResponse) => void;

/**
 * The one error mapper: every error becomes `{success:false, error, details}`; a 500 shows no
 * internals. Answers on Node's response, so routes answered without Express use it too.
 */
export function answerError(logger: Logger): ErrorAnswer {
  return (err, req, res) => {
    const { status, details, headers } = classify(err);
    if (status >= 500) logger.error('unhandled error', { request_id: req.requestId, ...describeUnexpected(err) });
    if (res.headersSent) {
      res.end();
      return;
    }
    for (const [name, value] of Object.entries(headers ?? {})) res.setHeader(name, value);
    sendJson(res, status, errorBody(status, details));
  };
}

/** An error mapper as Express's error handler. */
export const asErrorHandler =
  (answer: ErrorAnswer): ErrorRequestHandler =>
  (err, req, res, _next) =>
    answer(err, req, res);

/** answerError as Express's error handler. */
export const errorHandler = (logger: Logger): ErrorRequestHandler => asErrorHandler(answerError(logger));

export const notFoundHandler: RequestHandler = (req) => {
  throw new AppError(404, `No route for ${req.method} ${req.path.slice(0, 200)}`);
};
