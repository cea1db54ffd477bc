import type { RequestHandler } from 'express';
import { tooManyRequests } from '../lib/errors.js';

/**
 * Joins and event streams a user (group and `sub`) may hold open at once, per API process. Each
 * holds a socket and a LISTEN subscription for up to 10 minutes; without a cap one token could
 * hold thousands and starve everyone else.
 */
export const MAX_OPEN_WAITS_PER_USER = 20;

/**
 * One counter shared by every route it guards (join, stream, create-and-stream). Past the cap:
 * 429 with Retry-After; a slot is given back when the answer ends or the client goes away.
 * Runs after bearer authentication.
 */
export function openWaitCap(limit = MAX_OPEN_WAITS_PER_USER): RequestHandler {
  const open = new Map<string, number>();
  return (req, res, next) => {
    const key = JSON.stringify([req.principal!.groupId, req.principal!.userId]);
    const held = open.get(key) ?? 0;
    if (held >= limit) {
      throw tooManyRequests(`At most ${limit} joins and streams may be open at once per user; close one or retry later`, 5);
    }
    open.set(key, held + 1);
    let released = false;
    const release = () => {
      if (released) return;
      released = true;
      const left = (open.get(key) ?? 1) - 1;
      if (left > 0) open.set(key, left);
      else open.delete(key);
    };
    res.once('close', release);
    res.once('finish', release);
    next();
  };
}
