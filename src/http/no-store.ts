import { requestPath, type PlainMiddleware } from './request-types.js';

/**
 * `Cache-Control: no-store` on every answer under `/v1` and `/api/v1` (clinical and key routes):
 * notes, transcripts and audit rows must never rest in a browser or proxy cache. Set before the
 * routes run, so error answers carry it too; a handler may still narrow it (never widen it).
 */
export function noStore(prefixes: readonly string[]): PlainMiddleware {
  const lowered = prefixes.map((p) => p.toLowerCase());
  return (req, res, next) => {
    const path = requestPath(req).toLowerCase();
    if (lowered.some((prefix) => path === prefix || path.startsWith(`${prefix}/`))) res.setHeader('Cache-Control', 'no-store');
    next();
  };
}
