import type { Request, Response } from 'express';
import type { Queryable } from '../../db/pool.js';
import { loadNote } from './get-note.js';
import { fhirEtag } from './note-etag.js';
import { toDocumentReference } from './note-fhir.js';

/** GET /v1/clinical-notes/{id}/fhir: the note as a FHIR R4 DocumentReference (application/fhir+json). */
export function getNoteFhir(db: Queryable) {
  return async (req: Request<{ id: string }>, res: Response) => {
    const row = await loadNote(db, req.principal!.groupId, req.params.id);
    res.type('application/fhir+json').set('ETag', fhirEtag(row.version)).json(toDocumentReference(row));
  };
}
