import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import type { Queryable } from '../../db/pool.js';
import { CONTENT_SCHEMAS, templateSchema, type NoteContent, type Template } from '../../engine/templates.js';
import { describeZodError } from '../../http/validate.js';
import { badRequest, conflict, preconditionFailed } from '../../lib/errors.js';
import { recordEvent } from '../../outbound-events/outbox.repo.js';
import type { NoteEvidence } from '../../engine/engine.js';
import { ifMatchSatisfied, noteEtag } from './note-etag.js';
import { keptEvidence } from './note-evidence.js';
import { findNote, insertNote, insertNoteVersion, updateNoteRow, type ClinicalNote, type NoteFields, type NoteRow } from './notes.repo.js';

export type { ClinicalNote } from './notes.repo.js';

/** The fields a change may touch, in the order changed_fields lists them. */
const CHANGEABLE = ['transcription_id', 'template', 'ai_generated_content', 'feedback', 'report_thread_id', 'report_run_id'] as const;

/** The API shape of a stored row (shows its patient and visit; drops the doctor and the bookkeeping of versions). */
export function toClinicalNote(row: NoteRow): ClinicalNote {
  const { doctor_id: _d, signed_version: _s, engine_version: _e, evidence, ...note } = row;
  return evidence ? { ...note, evidence } : note; // additive: only extracted notes carry evidence
}

/** Checks content against its template's schema; a 400 naming `ai_generated_content.<field>`. */
export function assertContentFits(template: Template, content: unknown): NoteContent {
  const known = templateSchema.safeParse(template);
  if (!known.success) throw badRequest(`template: must be one of ${templateSchema.options.join(', ')}`);
  const result = CONTENT_SCHEMAS[known.data].safeParse(content);
  if (result.success) return result.data;
  const issues = result.error.issues.map((i) => ({ ...i, path: ['ai_generated_content', ...i.path] }));
  throw badRequest(`${describeZodError(new z.ZodError(issues))} (template ${known.data})`);
}

export interface NewNoteInput {
  id?: string;
  groupId: string;
  userId: string;
  doctorId?: string;
  patientId?: string;
  transcriptionId?: string | null;
  template: Template;
  content: NoteContent;
  feedback?: string | null;
  reportThreadId?: string | null;
  reportRunIds?: string[];
  correlationId?: string;
  evidence?: NoteEvidence;
  /** Written by the engine (an extraction): the draft the feedback export compares with the signed text. */
  byEngine?: boolean;
}

/**
 * Creates a note at version 1 with its `note.created` event, in the caller's transaction. With an
 * `id` that exists already in the group it returns the stored note and writes nothing (a retried
 * pipeline step). Links are not checked here: the HTTP handler checks them, the extraction job
 * passes its own thread, run and transcription.
 */
export async function saveNewNote(tx: Queryable, input: NewNoteInput): Promise<ClinicalNote> {
  const content = assertContentFits(input.template, input.content);
  const { row, inserted } = await insertNote(tx, {
    id: input.id ?? randomUUID(),
    groupId: input.groupId,
    userId: input.userId,
    doctorId: input.doctorId ?? null,
    patientId: input.patientId ?? null,
    transcriptionId: input.transcriptionId ?? null,
    template: input.template,
    content,
    feedback: input.feedback ?? null,
    reportThreadId: input.reportThreadId ?? null,
    reportRunIds: input.reportRunIds ?? [],
    correlationId: input.correlationId ?? null,
    evidence: input.evidence ?? null,
    byEngine: input.byEngine,
  });
  if (!inserted) {
    if (row.group_id !== input.groupId) throw conflict(`Clinical note id ${row.id} is already in use`);
    return toClinicalNote(row);
  }
  const note = toClinicalNote(row);
  const changedFields = CHANGEABLE.filter((f) => {
    const value = note[f];
    return value !== null && !(Array.isArray(value) && value.length === 0);
  });
  await insertNoteVersion(tx, {
    noteId: note.id,
    version: 1,
    snapshot: note,
    changedFields,
    userId: input.userId,
    doctorId: row.doctor_id,
  });
  await recordEvent(tx, {
    type: 'note.created',
    groupId: note.group_id,
    data: { note_id: note.id, template: note.template, version: 1, group_id: note.group_id },
  });
  return note;
}

export interface ApplyChangeInput {
  noteId: string;
  groupId: string;
  userId: string;
  doctorId?: string;
  /** The request's If-Match header, when sent: checked under the row lock (412 on mismatch). */
  ifMatch?: string;
  /** Computes the change from the locked current row; it may throw a 4xx (links, shapes). */
  change: (current: NoteRow) => NoteFields | Promise<NoteFields>;
  /** The engine's write (an extraction): refused on a signed note, recorded as the draft. */
  byEngine?: boolean;
  /** A person's change of a signed or amended note must say why (DESIGN: amendments). */
  amendmentReason?: string;
}

export interface ApplyChangeResult {
  row: NoteRow;
  changedFields: string[];
  /** A new version of a signed or amended note: the caller records its `note.amended` in the same transaction (recordAmendment). */
  amended: boolean;
}

function stableJson(value: unknown): string {
  if (value && typeof value === 'object' && !Array.isArray(value)) {
    const entries = Object.entries(value as Record<string, unknown>).sort(([a], [b]) => a.localeCompare(b));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${stableJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

/**
 * Applies a change to a note as a new version, in the caller's transaction. The row lock (FOR
 * UPDATE) serialises concurrent writers, so every change becomes its own version and none is lost.
 * A change that sets every field to the value it already has writes nothing (same version, same
 * ETag), so a retried request does not make a spurious version. Undefined: no such note in the group.
 * A change of a signed note is an amendment (`amended`): its `note.amended` is the caller's to
 * record (signoff-event.ts recordAmendment), so the engine's writes, which never amend, carry no sign-off code.
 */
export async function applyNoteChange(tx: Queryable, input: ApplyChangeInput): Promise<ApplyChangeResult | undefined> {
  const current = await findNote(tx, input.groupId, input.noteId, true);
  if (!current) return undefined;
  if (input.byEngine && current.status !== 'draft') {
    throw conflict(`Clinical note ${current.id} is ${current.status}: the engine never rewrites a signed note`);
  }
  if (input.ifMatch !== undefined && !ifMatchSatisfied(input.ifMatch, current.version)) {
    throw preconditionFailed(
      `If-Match ${input.ifMatch.slice(0, 100)} does not match the current version of clinical note ${current.id} (ETag ${noteEtag(current.version)})`,
    );
  }
  const signed = current.status !== 'draft';
  if (signed && !input.amendmentReason) {
    throw badRequest(`amendment_reason: required to change clinical note ${current.id}, which is ${current.status} (an amendment)`);
  }
  if (!signed && input.amendmentReason !== undefined) {
    throw badRequest(`amendment_reason: clinical note ${current.id} is a draft; only a signed note is amended`);
  }
  const fields = await input.change(current);
  const next: Required<NoteFields> = {
    evidence: current.evidence,
    transcription_id: current.transcription_id,
    template: current.template,
    ai_generated_content: current.ai_generated_content,
    feedback: current.feedback,
    report_thread_id: current.report_thread_id,
    report_run_id: current.report_run_id,
    status: current.status,
    amendment_reason: current.amendment_reason,
  };
  for (const f of CHANGEABLE) if (fields[f] !== undefined) (next as Record<string, unknown>)[f] = fields[f];
  if (next.template !== current.template && fields.ai_generated_content === undefined) {
    throw badRequest(
      `Changing template from ${current.template} to ${next.template} needs ai_generated_content of the ${next.template} shape`,
    );
  }
  next.ai_generated_content = assertContentFits(next.template, next.ai_generated_content);
  // New evidence comes with an extraction; otherwise changed sections lose theirs.
  next.evidence =
    fields.evidence !== undefined
      ? fields.evidence
      : keptEvidence(
          current.evidence,
          { template: current.template, content: current.ai_generated_content },
          { template: next.template, content: next.ai_generated_content },
        );

  const changedFields: string[] = CHANGEABLE.filter((f) => stableJson(next[f]) !== stableJson(current[f]));
  if (changedFields.length === 0 && stableJson(next.evidence) === stableJson(current.evidence))
    return { row: current, changedFields, amended: false };
  if (signed) {
    // An amendment: the signature fields stay, the status says the signed text has changed.
    next.status = 'amended';
    next.amendment_reason = input.amendmentReason!;
    if (current.status !== 'amended') changedFields.push('status');
    changedFields.push('amendment_reason');
  }

  const row = await updateNoteRow(tx, current.id, current.version + 1, next, input.byEngine);
  const note = toClinicalNote(row);
  await insertNoteVersion(tx, {
    noteId: note.id,
    version: note.version,
    snapshot: note,
    changedFields,
    userId: input.userId,
    doctorId: input.doctorId ?? null,
  });
  await recordEvent(tx, {
    type: 'note.updated',
    groupId: note.group_id,
    data: { note_id: note.id, template: note.template, version: note.version, group_id: note.group_id, changed_fields: changedFields },
  });
  return { row, changedFields, amended: signed };
}

export interface UpdateNoteContentInput {
  noteId: string;
  groupId: string;
  userId: string;
  doctorId?: string;
  template?: Template;
  content?: NoteContent;
  evidence?: NoteEvidence;
  addReportRunId?: string;
  reportThreadId?: string;
}

/**
 * The extraction job's update: new content (and template), the thread and one more run linked.
 * A new version with a `note.updated` event; undefined when the note is not in the group.
 */
export async function updateNoteContent(tx: Queryable, input: UpdateNoteContentInput): Promise<ClinicalNote | undefined> {
  const result = await applyNoteChange(tx, {
    noteId: input.noteId,
    groupId: input.groupId,
    userId: input.userId,
    doctorId: input.doctorId,
    byEngine: true,
    change: (current) => ({
      template: input.template,
      ai_generated_content: input.content,
      evidence: input.content ? (input.evidence ?? null) : undefined,
      report_thread_id: input.reportThreadId,
      report_run_id:
        input.addReportRunId && !current.report_run_id.includes(input.addReportRunId)
          ? [...current.report_run_id, input.addReportRunId]
          : undefined,
    }),
  });
  return result && toClinicalNote(result.row);
}
