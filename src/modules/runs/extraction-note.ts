import { randomUUID } from 'node:crypto';
import type { Queryable } from '../../db/pool.js';
import type { NoteEvidence } from '../../engine/engine.js';
import type { NoteContent, Template } from '../../engine/templates.js';
import { notFound } from '../../lib/errors.js';
import { saveNewNote, updateNoteContent } from '../notes/save-note.js';
import type { StoredRun } from './runs.repo.js';

export interface ExtractionNoteInput {
  /** `config.configurable.note_id`: update this note instead of creating one. */
  noteId?: string;
  transcriptionId?: string;
  template: Template;
  content: NoteContent;
  evidence?: NoteEvidence;
}

/**
 * The note an extraction run writes, linked to its transcription, thread and run. The id is
 * chosen up front so the run's output can name it; `write` runs in the transaction that ends
 * the run, so a retried attempt never makes a second note.
 */
export function writeExtractionNote(run: StoredRun, input: ExtractionNoteInput): { noteId: string; write(tx: Queryable): Promise<void> } {
  const noteId = input.noteId ?? randomUUID();
  const who = { groupId: run.group_id, userId: run.user_id, doctorId: run.doctor_id };
  return {
    noteId,
    write: async (tx) => {
      if (input.noteId) {
        const updated = await updateNoteContent(tx, {
          ...who,
          noteId,
          template: input.template,
          content: input.content,
          evidence: input.evidence,
          reportThreadId: run.thread_id,
          addReportRunId: run.run_id,
        });
        if (!updated) throw notFound('Clinical note', noteId);
        return;
      }
      await saveNewNote(tx, {
        ...who,
        id: noteId,
        patientId: run.patient_id ?? undefined,
        transcriptionId: input.transcriptionId ?? null,
        template: input.template,
        content: input.content,
        evidence: input.evidence,
        reportThreadId: run.thread_id,
        reportRunIds: [run.run_id],
        correlationId: run.correlation_id ?? undefined,
        byEngine: true,
      });
    },
  };
}
