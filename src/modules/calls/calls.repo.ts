import type { Queryable } from '../../db/pool.js';
import { isoTime } from '../../db/sql.js';
import type { CallStatus } from './call-status.js';

export interface CallAnswer {
  questionId: string;
  answer: unknown;
}

/** A call as the API shows it (the voice section's camelCase). */
export interface Call {
  callId: string;
  status: CallStatus;
  statusReason: string | null;
  attempts: number;
  answers: CallAnswer[];
  transcript: string | null;
  providerCallId: string | null;
  questionnaireId: string;
  phoneNumber: string;
  patientId: string | null;
  centerId: string | null;
  language: string | null;
  scheduledAt: string | null;
  metadata: Record<string, unknown>;
  createdAt: string;
  updatedAt: string;
  dispatchedAt: string | null;
  completedAt: string | null;
}

/** The call and its group (not part of the API shape; events carry it as group_id). */
export type StoredCall = Call & { groupId: string | null };

export interface NewCall {
  id: string;
  groupId: string | null;
  questionnaireId: string;
  phoneNumber: string;
  patientId?: string;
  centerId?: string;
  language?: string;
  scheduledAt?: string;
  metadata: Record<string, unknown>;
}

const COLUMNS = `id AS "callId", status, status_reason AS "statusReason", attempts, answers, transcript,
  provider_call_id AS "providerCallId", questionnaire_id AS "questionnaireId", phone_number AS "phoneNumber",
  patient_id AS "patientId", center_id AS "centerId", language,
  ${isoTime('scheduled_at', '"scheduledAt"')}, metadata,
  ${isoTime('created_at', '"createdAt"')}, ${isoTime('updated_at', '"updatedAt"')},
  ${isoTime('dispatched_at', '"dispatchedAt"')}, ${isoTime('completed_at', '"completedAt"')},
  group_id AS "groupId"`;

export function publicCall(call: StoredCall): Call {
  const { groupId: _groupId, ...rest } = call;
  return rest;
}

export async function insertCall(db: Queryable, c: NewCall): Promise<StoredCall> {
  const { rows } = await db.query<StoredCall>(
    `INSERT INTO calls (id, group_id, questionnaire_id, phone_number, patient_id, center_id, language, scheduled_at, metadata)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)
     RETURNING ${COLUMNS}`,
    [
      c.id,
      c.groupId,
      c.questionnaireId,
      c.phoneNumber,
      c.patientId ?? null,
      c.centerId ?? null,
      c.language ?? null,
      c.scheduledAt ?? null,
      JSON.stringify(c.metadata),
    ],
  );
  return rows[0];
}

/** The call; `forUpdate` locks its row for the rest of the caller's transaction. */
export async function findCall(db: Queryable, id: string, forUpdate = false): Promise<StoredCall | undefined> {
  const { rows } = await db.query<StoredCall>(`SELECT ${COLUMNS} FROM calls WHERE id = $1${forUpdate ? ' FOR UPDATE' : ''}`, [id]);
  return rows[0];
}

export interface CallChange {
  status?: CallStatus;
  statusReason?: string | null;
  answers?: CallAnswer[];
  transcript?: string;
  providerCallId?: string | null;
  /** Stamp dispatched_at / completed_at with now() when they are still empty. */
  markDispatched?: boolean;
  markCompleted?: boolean;
  incrementAttempts?: boolean;
}

/** Applies a change already validated by the caller (call-status.ts decides transitions). */
export async function updateCall(db: Queryable, id: string, ch: CallChange): Promise<StoredCall> {
  const { rows } = await db.query<StoredCall>(
    `UPDATE calls SET
       status = COALESCE($2, status),
       status_reason = CASE WHEN $3::boolean THEN $4 ELSE status_reason END,
       answers = COALESCE($5::jsonb, answers),
       transcript = COALESCE($6, transcript),
       provider_call_id = COALESCE($7, provider_call_id),
       dispatched_at = CASE WHEN $8::boolean THEN COALESCE(dispatched_at, now()) ELSE dispatched_at END,
       completed_at = CASE WHEN $9::boolean THEN COALESCE(completed_at, now()) ELSE completed_at END,
       attempts = attempts + CASE WHEN $10::boolean THEN 1 ELSE 0 END,
       updated_at = now()
     WHERE id = $1
     RETURNING ${COLUMNS}`,
    [
      id,
      ch.status ?? null,
      ch.statusReason !== undefined,
      ch.statusReason ?? null,
      ch.answers ? JSON.stringify(ch.answers) : null,
      ch.transcript ?? null,
      ch.providerCallId ?? null,
      Boolean(ch.markDispatched),
      Boolean(ch.markCompleted),
      Boolean(ch.incrementAttempts),
    ],
  );
  return rows[0];
}

/** Notes why a call is still queued; a call that has moved on meanwhile keeps its own reason. */
export async function setQueuedReason(db: Queryable, id: string, reason: string): Promise<void> {
  await db.query(
    `UPDATE calls SET status_reason = $2, updated_at = now() WHERE id = $1 AND status = 'queued' AND status_reason IS DISTINCT FROM $2`,
    [id, reason],
  );
}

/**
 * The time-out asks the provider once: true for the first caller only (it stamps
 * timeout_asked_at), false when it was asked before or the call has ended meanwhile.
 */
export async function markTimeoutAsked(db: Queryable, id: string): Promise<boolean> {
  const { rowCount } = await db.query(
    `UPDATE calls SET timeout_asked_at = now() WHERE id = $1 AND timeout_asked_at IS NULL
       AND status NOT IN ('completed', 'failed', 'no_answer', 'cancelled', 'timed_out')`,
    [id],
  );
  return rowCount === 1;
}
