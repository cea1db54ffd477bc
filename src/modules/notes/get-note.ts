import type { Request, Response } from 'express';
import type { Queryable } from '../../db/pool.js';
import { isUuid } from '../../http/validate.js';
import { notFound } from '../../lib/errors.js';
import { noteEtag } from './note-etag.js';
import { findNote, type NoteRow } from './notes.repo.js';
import { toClinicalNote } from './save-note.js';

/** The group's note named by the path, or the spec's 404 naming the id (also for ids that are not UUIDs). */
export async function loadNote(db: Queryable, groupId: string, id: string): Promise<NoteRow> {
  const row = isUuid(id) ? await findNote(db, groupId, id) : undefined;
  if (!row) throw notFound('Clinical note', id);
  return row;
}

/** GET /v1/clinical-notes/{id}: the note with its ETag (Express answers 304 to a matching If-None-Match). */
export function getNote(db: Queryable) {
  return async (req: Request<{ id: string }>, res: Response) => {
    const row = await loadNote(db, req.principal!.groupId, req.params.id);
    res.set('ETag', noteEtag(row.version)).json(toClinicalNote(row));
  };
}
