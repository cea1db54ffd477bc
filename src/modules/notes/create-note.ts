import type { Request, Response } from 'express';
import { z } from 'zod';
import type { Pool } from '../../db/pool.js';
import { withTransaction } from '../../db/transaction.js';
import { bodyObject, parseWith } from '../../http/validate.js';
import { assertOwnership, noteFieldsShape, readOnlyShape } from './note-body.js';
import { noteEtag } from './note-etag.js';
import { checkNoteLinks } from './note-links.js';
import { saveNewNote } from './save-note.js';

export const createNoteBody = z.strictObject({
  template: noteFieldsShape.template,
  ai_generated_content: noteFieldsShape.ai_generated_content,
  feedback: noteFieldsShape.feedback.optional(),
  transcription_id: noteFieldsShape.transcription_id.optional(),
  report_thread_id: noteFieldsShape.report_thread_id.optional(),
  report_run_id: noteFieldsShape.report_run_id.optional(),
  user_id: readOnlyShape.user_id,
  group_id: readOnlyShape.group_id,
});

/** POST /v1/clinical-notes: 201 with the note (version 1), its ETag and Location. */
export function createNote(pool: Pool) {
  return async (req: Request, res: Response) => {
    const raw = bodyObject(req.body);
    const body = parseWith(createNoteBody, raw);
    const { userId, groupId } = req.principal!;
    assertOwnership(raw, { user_id: userId, group_id: groupId });
    const note = await withTransaction(pool, async (tx) => {
      const links = await checkNoteLinks(tx, groupId, {
        transcription_id: body.transcription_id,
        report_thread_id: body.report_thread_id,
        report_run_id: body.report_run_id,
      });
      return saveNewNote(tx, {
        groupId,
        userId,
        doctorId: req.doctor,
        patientId: req.patient,
        transcriptionId: links.transcription_id,
        template: body.template,
        content: body.ai_generated_content as Record<string, string>,
        feedback: body.feedback,
        reportThreadId: links.report_thread_id,
        reportRunIds: links.report_run_id,
      });
    });
    res.status(201).location(`/v1/clinical-notes/${note.id}`).set('ETag', noteEtag(note.version)).json(note);
  };
}
