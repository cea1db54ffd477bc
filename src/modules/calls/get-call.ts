import type { Request, Response } from 'express';
import type { Queryable } from '../../db/pool.js';
import { isUuid } from '../../http/validate.js';
import { notFound } from '../../lib/errors.js';
import { findCall, publicCall } from './calls.repo.js';

export function getCall(db: Queryable) {
  return async (req: Request<{ callId: string }>, res: Response) => {
    const { callId } = req.params;
    const call = isUuid(callId) ? await findCall(db, callId) : undefined;
    if (!call) throw notFound('Call', callId);
    res.set('cache-control', 'no-store').json(publicCall(call));
  };
}
