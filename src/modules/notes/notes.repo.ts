import type { Queryable } from '../../db/pool.js';
import { isoTime } from '../../db/sql.js';
import type { NoteEvidence } from '../../engine/engine.js';
import type { NoteContent, Template } from '../../engine/templates.js';

export type NoteStatus = 'draft' | 'signed' | 'amended';

/** A code the clinician confirmed at signature, with its title in the code table. */
export interface SignedCode {
  code: string;
  description: string;
}

/** A clinical note as the API answers it (spec fields plus `version` and the sign-off fields). */
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
  /** `draft` until signed; `signed`; `amended` after a change to a signed note. */
  status: NoteStatus;
  signed_by: string | null;
  signed_at: string | null;
  signed_codes: SignedCode[] | null;
  /** Why the current version changed a signed note (null until amended). */
  amendment_reason: string | null;
  /** The patient and the visit (encounter) when known: from x-patient, or from the pipeline's inbound event. */
  patient_id: string | null;
  visit_id: string | null;
  /** Present on extracted notes: per section, each sentence with its transcript lines. */
  evidence?: NoteEvidence;
}

/**
 * The stored row: the API note plus the doctor and patient identifiers (FHIR author and
 * subject), the visit, the version the signature made and the last version the engine wrote.
 */
export interface NoteRow extends Omit<ClinicalNote, 'evidence'> {
  doctor_id: string | null;
  signed_version: number | null;
  engine_version: number | null;
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
  /** Written by the engine (an extraction): version 1 is its draft. */
  byEngine?: boolean;
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
  /** An amendment sets these two; signing has its own statement (signNoteRow). */
  status?: NoteStatus;
  amendment_reason?: string | null;
}

const COLUMNS = `id, user_id, group_id, doctor_id, patient_id, transcription_id, template, ai_generated_content,
  feedback, report_thread_id, report_run_id, version, ${isoTime('created_at')}, ${isoTime('updated_at')},
  status, signed_by, ${isoTime('signed_at')}, signed_codes, amendment_reason, evidence, visit_id, signed_version, engine_version`;

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
                                   correlation_id, evidence, engine_version, created_at, updated_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, 1, $12, $13, $14, clock_timestamp(), clock_timestamp())
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
      n.byEngine ? 1 : null,
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

/**
 * Writes the new state of a locked note and bumps its version; `byEngine` records the version
 * as the engine's draft. Returns the new row.
 */
export async function updateNoteRow(
  db: Queryable,
  id: string,
  version: number,
  f: Required<NoteFields>,
  byEngine = false,
): Promise<NoteRow> {
  const { rows } = await db.query<NoteRow>(
    `UPDATE clinical_notes
        SET transcription_id = $3, template = $4, ai_generated_content = $5, feedback = $6,
            report_thread_id = $7, report_run_id = $8, evidence = $9, version = $2, updated_at = clock_timestamp(),
            status = $10, amendment_reason = $11, engine_version = CASE WHEN $12 THEN $2 ELSE engine_version END
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
      f.status,
      f.amendment_reason,
      byEngine,
    ],
  );
  return rows[0];
}

/** Signs a locked draft: the signature fields, a new version (the signed one). Returns the new row. */
export async function signNoteRow(
  db: Queryable,
  id: string,
  version: number,
  s: { signedBy: string; codes: SignedCode[] },
): Promise<NoteRow> {
  const { rows } = await db.query<NoteRow>(
    `UPDATE clinical_notes
        SET status = 'signed', signed_by = $3, signed_at = clock_timestamp(), signed_codes = $4,
            signed_version = $2, version = $2, updated_at = clock_timestamp()
      WHERE id = $1
      RETURNING ${COLUMNS}`,
    [id, version, s.signedBy, JSON.stringify(s.codes)],
  );
  return rows[0];
}

/**
 * The final codes of the note's last completed codification: the one its pipeline ran (same
 * correlation id, same group). Undefined when the note has none.
 */
export async function lastCodificationCodes(db: Queryable, noteId: string): Promise<SignedCode[] | undefined> {
  const { rows } = await db.query<{ codes: SignedCode[] | null }>(
    `SELECT (SELECT jsonb_agg(jsonb_build_object('code', a->>'code', 'description', coalesce(a->>'description', '')))
               FROM jsonb_array_elements(c.result->'final_code_assessments') a) AS codes
       FROM clinical_notes n
       JOIN codify_runs c ON c.correlation_id = n.correlation_id AND c.group_id = n.group_id
      WHERE n.id = $1 AND c.status = 'completed' AND c.result IS NOT NULL
      ORDER BY c.created_at DESC
      LIMIT 1`,
    [noteId],
  );
  return rows[0] ? (rows[0].codes ?? []) : undefined;
}

/** The patient id's namespace as the sender named it: PID-3 CX.4 and its FHIR identifier system. */
export interface PatientAuthority {
  patient_authority: string | null;
  patient_system: string | null;
}

/**
 * The patient authority of the note's pipeline: what note.ready carried, kept on the pipeline's row
 * from its start (start-pipeline.ts), so it outlives the inbound event's body (RETENTION_DAYS).
 * Nulls when the note had no pipeline (written through the API) or its sender named no authority.
 */
export async function notePatientAuthority(db: Queryable, noteId: string): Promise<PatientAuthority> {
  const { rows } = await db.query<PatientAuthority>(
    `SELECT p.patient_authority, p.patient_system
       FROM documentation_pipelines p
      WHERE p.note_id = $1
      ORDER BY p.created_at DESC
      LIMIT 1`,
    [noteId],
  );
  return rows[0] ?? { patient_authority: null, patient_system: null };
}

/** The visit (EHR encounter) a pipeline's note documents. */
export async function setNoteVisit(db: Queryable, id: string, visitId: string): Promise<void> {
  await db.query(`UPDATE clinical_notes SET visit_id = $2 WHERE id = $1 AND visit_id IS DISTINCT FROM $2`, [id, visitId]);
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
