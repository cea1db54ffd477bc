import { randomUUID } from 'node:crypto';
import { header, type PlainMiddleware } from './request-types.js';

const SAFE_REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/**
 * Gives every request an id made here (logs and the audit trail carry it: a client cannot choose
 * or repeat it) and keeps the caller's `x-request-id` beside it as `client_request_id`. The
 * answer echoes the caller's id when it is sane, so clients keep correlating, else ours.
 *
 * The ids travel on `req`, not in an AsyncLocalStorage context: in Node 20 an active context
 * turns on promise hooks for every promise of the thread, which cost ingest ~10% of its
 * main-thread CPU per request. The log lines of a request (the access log, the error
 * handler) name its ids themselves; jobs still log under theirs (lib/request-context.ts).
 */
export const requestContext: PlainMiddleware = (req, res, next) => {
  const incoming = header(req, 'x-request-id');
  req.requestId = randomUUID();
  if (incoming !== undefined) req.clientRequestId = incoming;
  res.setHeader('x-request-id', incoming && SAFE_REQUEST_ID.test(incoming) ? incoming : req.requestId);
  next();
};
