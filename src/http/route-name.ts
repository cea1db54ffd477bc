import type { PlainRequest } from './request-types.js';

/** The matched route pattern (`/v1/agent/threads/:threadId`), never the raw path with its ids. */
export function routeName(req: PlainRequest): string {
  const path = req.route?.path;
  if (typeof path === 'string') return `${req.baseUrl ?? ''}${path}`;
  return 'unmatched';
}
