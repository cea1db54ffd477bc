import type { Queryable } from '../../db/pool.js';
import { isoTime } from '../../db/sql.js';
import type { NoteEvidence } from '../../engine/engine.js';
import type { NoteContent, Template } from '../../engine/templates.js';

/** A clinical note as the API answers it (spec fields plus `version`). */
export interface ClinicalNote {
  id: string;
  user_id: string;
  group_id: string;
  transcription_id: string | null;
  template: Template;
  ai_generated_content: NoteContent;
  feedback: string | null;
  report_thread_id: string | null;
  report_run_id: string[];
  version: number;
  created_at: string;
  updated_at: string;
  /** Present on extracted notes: per section, each sentence with its transcript lines. */
  evidence?: NoteEvidence;
}

/** The stored row: the API note plus the doctor and patient identifiers (FHIR author and subject). */
export interface NoteRow extends Omit<ClinicalNote, 'evidence'> {
  doctor_id: string | null;
  patient_id: string | null;
  evidence: NoteEvidence | null;
}

export interface NoteVersion {
  version: number;
  changed_fields: string[];
  user_id: string;
  doctor_id: string | null;
  created_at: string;
  snapshot: ClinicalNote;
}

export interface NewNoteRow {
  id: string;
  groupId: string;
  userId: string;
  doctorId: string | null;
  patientId: string | null;
  transcriptionId: string | null;
  template: Template;
  content: NoteContent;
  feedback: string | null;
  reportThreadId: string | null;
  reportRunIds: string[];
  correlationId: string | null;
  evidence?: NoteEvidence | null;
}

/** The fields a change may set; absent keys keep their values. */
export interface NoteFields {
  transcription_id?: string | null;
  template?: Template;
  ai_generated_content?: NoteContent;
  feedback?: string | null;
  report_thread_id?: string | null;
  report_run_id?: string[];
  /** Not a changeable field of the API: the extraction sets it, a content change prunes it. */
  evidence?: NoteEvidence | null;
}

const COLUMNS = `id, user_id, group_id, doctor_id, patient_id, transcription_id, template, ai_generated_content,
  feedback, report_thread_id, report_run_id, version, ${isoTime('created_at')}, ${isoTime('updated_at')}, evidence`;

/**
 * Inserts a note at version 1; an id that exists already (a retried pipeline step) inserts nothing
 * and returns `inserted: false` with the stored row (whatever its group: the caller checks).
 * clock_timestamp(), not now(): serialised writers in long transactions still get ordered times.
 */
export async function insertNote(db: Queryable, n: NewNoteRow): Promise<{ row: NoteRow; inserted: boolean }> {
  const { rows } = await db.query<NoteRow & { inserted: boolean }>(
    `WITH ins AS (
       INSERT INTO clinical_notes (id, group_id, user_id, doctor_id, patient_id, transcription_id, template,
                                   ai_generated_content, feedback, report_thread_id, report_run_id, version,
                                   correlation_id, evidence, created_at, updated_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, 1, $12, $13, clock_timestamp(), clock_timestamp())
       ON CONFLICT (id) DO NOTHING
       RETURNING *)
     SELECT ${COLUMNS}, true AS inserted FROM ins
     UNION ALL
     SELECT ${COLUMNS}, false AS inserted FROM clinical_notes WHERE id = $1 AND NOT EXISTS (SELECT 1 FROM ins)`,
    [
      n.id,
      n.groupId,
      n.userId,
      n.doctorId,
      n.patientId,
      n.transcriptionId,
      n.template,
      JSON.stringify(n.content),
      n.feedback,
      n.reportThreadId,
      n.reportRunIds,
      n.correlationId,
      n.evidence ? JSON.stringify(n.evidence) : null,
    ],
  );
  const { inserted, ...row } = rows[0];
  return { row, inserted };
}

/** A note of the group; `lock` takes the row lock that serialises concurrent changes. */
export async function findNote(db: Queryable, groupId: string, id: string, lock = false): Promise<NoteRow | undefined> {
  const { rows } = await db.query<NoteRow>(
    `SELECT ${COLUMNS} FROM clinical_notes WHERE id = $1 AND group_id = $2${lock ? ' FOR UPDATE' : ''}`,
    [id, groupId],
  );
  return rows[0];
}

/** Writes the new state of a locked note and bumps its version; returns the new row. */
export async function updateNoteRow(db: Queryable, id: string, version: number, f: Required<NoteFields>): Promise<NoteRow> {
  const { rows } = await db.query<NoteRow>(
    `UPDATE clinical_notes
        SET transcription_id = $3, template = $4, ai_generated_content = $5, feedback = $6,
            report_thread_id = $7, report_run_id = $8, evidence = $9, version = $2, updated_at = clock_timestamp()
      WHERE id = $1
      RETURNING ${COLUMNS}`,
    [
      id,
      version,
      f.transcription_id,
      f.template,
      JSON.stringify(f.ai_generated_content),
      f.feedback,
      f.report_thread_id,
      f.report_run_id,
      f.evidence ? JSON.stringify(f.evidence) : null,
    ],
  );
  return rows[0];
}

/** Appends an immutable version row; its time is the note's updated_at of that version. */
export async function insertNoteVersion(
  db: Queryable,
  v: { noteId: string; version: number; snapshot: ClinicalNote; changedFields: string[]; userId: string; doctorId: string | null },
): Promise<void> {
  await db.query(
    `INSERT INTO clinical_note_versions (note_id, version, snapshot, changed_fields, user_id, doctor_id, created_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7::timestamptz)`,
    [v.noteId, v.version, JSON.stringify(v.snapshot), v.changedFields, v.userId, v.doctorId, v.snapshot.updated_at],
  );
}

export async function listNoteVersions(db: Queryable, noteId: string): Promise<NoteVersion[]> {
  const { rows } = await db.query<NoteVersion>(
    `SELECT version, changed_fields, user_id, doctor_id, ${isoTime('created_at')}, snapshot
       FROM clinical_note_versions WHERE note_id = $1 ORDER BY version`,
    [noteId],
  );
  return rows;
}

/** Which of `runIds` are runs of the thread (ids that are not UUIDs simply do not match). */
export async function runIdsOfThread(db: Queryable, threadId: string, runIds: string[]): Promise<Set<string>> {
  if (runIds.length === 0) return new Set();
  const { rows } = await db.query<{ id: string }>(
    `SELECT id::text AS id FROM runs
      WHERE thread_id = $1 AND id::text = ANY($2::text[])`,
    [threadId, runIds],
  );
  return new Set(rows.map((r) => r.id));
}
