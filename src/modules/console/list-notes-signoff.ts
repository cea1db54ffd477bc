import type { Request, Response } from 'express';
import { z } from 'zod';
import type { Queryable } from '../../db/pool.js';
import { parseWith } from '../../http/validate.js';
import { draftsWaiting, recentNotes } from './notes-signoff.repo.js';

export const notesQuery = z.object({
  limit: z.coerce.number().int().min(1).max(200).default(50),
  status: z.enum(['draft', 'signed', 'amended']).optional(),
});

/**
 * GET /api/v1/console/notes: drafts waiting for signature per group, and the newest notes with
 * their status and signer (ids only, never the text).
 */
export function listNotesSignoff(db: Queryable) {
  return async (req: Request, res: Response) => {
    const { limit, status } = parseWith(notesQuery, req.query);
    const [waiting, recent] = await Promise.all([draftsWaiting(db, limit), recentNotes(db, limit, status)]);
    res.json({ drafts_waiting: waiting, recent });
  };
}
