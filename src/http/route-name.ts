import type { Request } from 'express';

/** The matched route pattern (`/v1/agent/threads/:threadId`), never the raw path with its ids. */
export function routeName(req: Request): string {
  const path = req.route?.path;
  if (typeof path === 'string') return `${req.baseUrl}${path}`;
  return 'unmatched';
}
