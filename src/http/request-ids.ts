import { randomUUID } from 'node:crypto';
import type { RequestHandler } from 'express';
import { runWithContext } from '../lib/request-context.js';

const SAFE_REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/**
 * Gives every request an id made here (logs and the audit trail carry it: a client cannot choose
 * or repeat it) and keeps the caller's `x-request-id` beside it as `client_request_id`. The
 * answer echoes the caller's id when it is sane, so clients keep correlating, else ours.
 */
export const requestContext: RequestHandler = (req, res, next) => {
  const incoming = req.get('x-request-id');
  req.requestId = randomUUID();
  if (incoming !== undefined) req.clientRequestId = incoming;
  res.setHeader('x-request-id', incoming && SAFE_REQUEST_ID.test(incoming) ? incoming : req.requestId);
  runWithContext({ requestId: req.requestId }, () => next());
};
