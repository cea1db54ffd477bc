import type { Request, Response } from 'express';
import { z } from 'zod';
import type { Queryable } from '../../db/pool.js';
import { isUuid, parseWith } from '../../http/validate.js';
import { badRequest } from '../../lib/errors.js';
import { listFeedback, type FeedbackCursor } from './feedback.repo.js';

export const feedbackQuery = z.object({
  group_id: z
    .string()
    .min(1)
    .max(512)
    .refine((v) => !v.includes('\u0000'), 'must not contain U+0000')
    .optional(),
  since: z.iso.datetime({ offset: true }).optional(),
  cursor: z.string().max(200).optional(),
  limit: z.coerce.number().int().min(1).max(1000).default(100),
});

const encodeCursor = (c: FeedbackCursor) => Buffer.from(JSON.stringify([c.at, c.id]), 'utf8').toString('base64url');

function decodeCursor(raw: string): FeedbackCursor {
  try {
    const [at, id] = JSON.parse(Buffer.from(raw, 'base64url').toString('utf8')) as [unknown, unknown];
    if (typeof at === 'string' && typeof id === 'string' && isUuid(id) && /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/.test(at))
      return { at, id };
  } catch {
    // falls through to the 400
  }
  throw badRequest('cursor: not a cursor this endpoint gave (use next_cursor of the previous page)');
}

/**
 * GET /api/v1/feedback (operator key): signed notes as learning signal, oldest signature first,
 * `limit` (1-1000, default 100) per page; `next_cursor` (null on the last page) continues it.
 */
export function listFeedbackHandler(db: Queryable) {
  return async (req: Request, res: Response) => {
    const q = parseWith(feedbackQuery, req.query);
    const page = await listFeedback(db, {
      groupId: q.group_id,
      since: q.since,
      after: q.cursor ? decodeCursor(q.cursor) : undefined,
      limit: q.limit,
    });
    res.json({ items: page.items, next_cursor: page.next ? encodeCursor(page.next) : null });
  };
}
