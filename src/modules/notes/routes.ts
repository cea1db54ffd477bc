import type { IRouter } from 'express';
import type { RouteDeps } from '../../app-deps.js';
import { audited } from '../../http/audit.js';
import { createNote } from './create-note.js';
import { getNoteFhir } from './get-note-fhir.js';
import { getNote } from './get-note.js';
import { listNoteVersions } from './list-note-versions.js';
import { patchNote } from './patch-note.js';
import { signNote } from './sign-note.js';

export function notesRoutes(router: IRouter, { pool, guards }: RouteDeps): void {
  router.post('/v1/clinical-notes', ...guards.clinical, audited({ created: { body: 'id' } }), createNote(pool));
  router.get('/v1/clinical-notes/:id', ...guards.clinical, audited({ param: 'id' }), getNote(pool));
  router.patch('/v1/clinical-notes/:id', ...guards.clinical, audited({ param: 'id' }), patchNote(pool));
  router.post('/v1/clinical-notes/:id/sign', ...guards.clinical, audited({ param: 'id' }), signNote(pool));
  router.get('/v1/clinical-notes/:id/versions', ...guards.clinical, audited({ param: 'id' }), listNoteVersions(pool));
  router.get('/v1/clinical-notes/:id/fhir', ...guards.clinical, audited({ param: 'id' }), getNoteFhir(pool));
}
