import type { Request, Response } from 'express';
import { z } from 'zod';
import type { Queryable } from '../../db/pool.js';
import { auditSearch } from '../../http/audit.js';
import { parseWith } from '../../http/validate.js';
import { listAuditEvents } from './audit.repo.js';

// PostgreSQL text holds no NUL: a filter carrying one is refused rather than failing the query.
const filterText = z
  .string()
  .min(1)
  .max(512)
  .refine((v) => !v.includes('\u0000'), 'must not contain U+0000');

export const auditEventsQuery = z.object({
  resource_id: filterText.optional(),
  patient: filterText.optional(),
  user: filterText.optional(),
  group_id: filterText.optional(),
  since: z.iso.datetime({ offset: true }).optional(),
  until: z.iso.datetime({ offset: true }).optional(),
  limit: z.coerce.number().int().min(1).max(1000).default(100),
});

/** GET /api/v1/audit-events: audit rows matching every filter given, newest first (operator key). */
export function listAuditEventsHandler(db: Queryable) {
  return async (req: Request, res: Response) => {
    const q = parseWith(auditEventsQuery, req.query);
    // Recorded whatever follows: who searched the trail for what (the limit is not a search).
    const { limit: _limit, ...filters } = q;
    auditSearch(res, filters, q.patient);
    const items = await listAuditEvents(db, {
      resourceId: q.resource_id,
      patient: q.patient,
      user: q.user,
      groupId: q.group_id,
      since: q.since,
      until: q.until,
      limit: q.limit,
    });
    res.json({ items });
  };
}
