import type { Request, Response } from 'express';
import type { Queryable } from '../../db/pool.js';
import { loadNote } from './get-note.js';
import { noteEtag } from './note-etag.js';
import { listNoteVersions as listVersions } from './notes.repo.js';

/** GET /v1/clinical-notes/{id}/versions: every saved version, oldest (1, the creation) first. */
export function listNoteVersions(db: Queryable) {
  return async (req: Request<{ id: string }>, res: Response) => {
    const row = await loadNote(db, req.principal!.groupId, req.params.id);
    const versions = await listVersions(db, row.id);
    // Read after the note: a change committed in between is listed, and the ETag follows the list.
    const current = versions.at(-1)?.version ?? row.version;
    res.set('ETag', noteEtag(current)).json({ note_id: row.id, current_version: current, versions });
  };
}
