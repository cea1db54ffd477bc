import { z } from 'zod';
import { parseWith } from '../../http/validate.js';

const pagination = z.object({
  limit: z.coerce.number().int().min(1).max(200).default(50),
  offset: z.coerce.number().int().min(0).default(0),
});

/** `limit` (1-200, default 50) and `offset` from the query string; anything else there is ignored. */
export function parsePagination(query: unknown): { limit: number; offset: number } {
  const q = (query ?? {}) as Record<string, unknown>;
  return parseWith(pagination, { limit: q.limit, offset: q.offset });
}
