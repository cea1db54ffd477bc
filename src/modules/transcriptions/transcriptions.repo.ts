import type { Queryable } from '../../db/pool.js';
import { isoTime } from '../../db/sql.js';

export interface Transcription {
  id: string;
  user_id: string;
  group_id: string;
  duration_seconds: number;
  language_used: string;
  original_transcript: string;
  /** The patient and the visit (encounter) when known: from x-patient, or from the pipeline's inbound event. */
  patient_id: string | null;
  visit_id: string | null;
  created_at: string;
  updated_at: string;
}

export interface NewTranscription {
  id: string;
  groupId: string;
  userId: string;
  doctorId: string;
  patientId?: string;
  visitId?: string;
  durationSeconds: number;
  language: string;
  transcript: string;
  correlationId?: string;
}

const COLUMNS = `id, user_id, group_id, duration_seconds, language_used, original_transcript, patient_id, visit_id,
  ${isoTime('created_at')}, ${isoTime('updated_at')}`;

/** Inserts a transcription; with an id that exists already (a retried pipeline step) returns the stored one. */
export async function insertTranscription(db: Queryable, t: NewTranscription): Promise<Transcription> {
  const { rows } = await db.query<Transcription>(
    `WITH ins AS (
       INSERT INTO transcriptions (id, group_id, user_id, doctor_id, patient_id, duration_seconds, language_used,
                                   original_transcript, correlation_id, visit_id)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)
       ON CONFLICT (id) DO NOTHING
       RETURNING *)
     SELECT ${COLUMNS} FROM ins
     UNION ALL
     SELECT ${COLUMNS} FROM transcriptions WHERE id = $1 AND NOT EXISTS (SELECT 1 FROM ins)`,
    [
      t.id,
      t.groupId,
      t.userId,
      t.doctorId,
      t.patientId ?? null,
      t.durationSeconds,
      t.language,
      t.transcript,
      t.correlationId ?? null,
      t.visitId ?? null,
    ],
  );
  return rows[0];
}

export async function findTranscription(db: Queryable, groupId: string, id: string): Promise<Transcription | undefined> {
  const { rows } = await db.query<Transcription>(`SELECT ${COLUMNS} FROM transcriptions WHERE id = $1 AND group_id = $2`, [id, groupId]);
  return rows[0];
}
