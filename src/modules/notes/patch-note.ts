import type { Request, Response } from 'express';
import { z } from 'zod';
import type { Pool } from '../../db/pool.js';
import { withTransaction } from '../../db/transaction.js';
import { bodyObject, isUuid, parseWith } from '../../http/validate.js';
import { badRequest, notFound } from '../../lib/errors.js';
import { assertOwnership, mergeNoteContent, noteFieldsShape, READ_ONLY_FIELDS, readOnlyShape } from './note-body.js';
import { noteEtag } from './note-etag.js';
import { checkNoteLinks } from './note-links.js';
import { applyNoteChange, toClinicalNote } from './save-note.js';
import { recordAmendment } from './signoff-event.js';

/**
 * Partial: every field optional, fields not sent keep their values (so do content sections not sent,
 * while the template stays); unknown fields refused.
 */
export const patchNoteBody = z.strictObject({
  template: noteFieldsShape.template.optional(),
  ai_generated_content: noteFieldsShape.ai_generated_content.optional(),
  feedback: noteFieldsShape.feedback.optional(),
  transcription_id: noteFieldsShape.transcription_id.optional(),
  report_thread_id: noteFieldsShape.report_thread_id.optional(),
  report_run_id: noteFieldsShape.report_run_id.optional(),
  amendment_reason: z
    .string()
    .trim()
    .min(1)
    .max(2_000)
    .nullable()
    .optional()
    .meta({ description: 'Required when the note is signed or amended: why the signed text changes (an amendment)' }),
  ...readOnlyShape,
});

/**
 * PATCH /v1/clinical-notes/{id}: 200 with the note and its new ETag. If-Match is checked under the
 * row lock (412 on mismatch); without it concurrent PATCHes queue on the lock and each one is kept.
 * A change of a signed or amended note is an amendment: `amendment_reason` required (400), status
 * `amended`, the signature kept, `note.amended` recorded.
 */
export function patchNote(pool: Pool) {
  return async (req: Request<{ id: string }>, res: Response) => {
    const { id } = req.params;
    if (!isUuid(id)) throw notFound('Clinical note', id);
    const raw = bodyObject(req.body);
    const body = parseWith(patchNoteBody, raw);
    if (Object.keys(raw).every((k) => READ_ONLY_FIELDS.includes(k))) {
      throw badRequest(
        'PATCH body must set at least one of template, ai_generated_content, feedback, transcription_id, report_thread_id, report_run_id',
      );
    }
    const { userId, groupId } = req.principal!;
    const result = await withTransaction(pool, async (tx) => {
      const changed = await applyNoteChange(tx, {
        noteId: id,
        groupId,
        userId,
        doctorId: req.doctor,
        ifMatch: req.get('if-match'),
        amendmentReason: body.amendment_reason ?? undefined, // null: a note read and sent back
        change: async (current) => {
          assertOwnership(raw, current);
          const links = await checkNoteLinks(tx, groupId, body, current);
          return {
            ...links,
            template: body.template,
            ai_generated_content:
              body.ai_generated_content && (mergeNoteContent(current, body.template, body.ai_generated_content) as Record<string, string>),
            feedback: body.feedback,
          };
        },
      });
      if (changed?.amended) await recordAmendment(tx, changed.row);
      return changed;
    });
    if (!result) throw notFound('Clinical note', id);
    res.set('ETag', noteEtag(result.row.version)).json(toClinicalNote(result.row));
  };
}
