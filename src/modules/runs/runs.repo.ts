import { CHANNELS } from '../../db/notifications.js';
import type { Queryable } from '../../db/pool.js';
import type { TokenUsage } from '../../engine/engine.js';
import { isoTime } from '../../db/sql.js';
import type { Continuation } from '../../jobs/continuation.js';

export type RunStatus = 'pending' | 'running' | 'completed' | 'failed';
export type RunKind = 'chat' | 'extraction';

export interface RunError {
  error: string;
  details: string;
}

/** A run as the API shows it (DESIGN.md "Runs"). */
export interface Run {
  run_id: string;
  thread_id: string;
  status: RunStatus;
  created_at: string;
  kind: RunKind;
  started_at: string | null;
  ended_at: string | null;
  output: Record<string, unknown> | null;
  error: RunError | null;
  /** The patient and the visit (encounter) when known: from x-patient, or from the pipeline's inbound event. */
  patient_id: string | null;
  visit_id: string | null;
}

/** What the run job needs beyond the API view: who asked, and what. */
export interface StoredRun extends Run {
  group_id: string;
  user_id: string;
  doctor_id: string;
  input: { messages: { role: 'user' | 'assistant' | 'system'; content: string }[] };
  config: { configurable: Record<string, unknown> };
  /** What is sent in the transaction that ends the run (enqueue-run.ts, end-run.ts); set by the server only. */
  continuation: Continuation | null;
  attempts: number;
  correlation_id: string | null;
}

export interface NewRun {
  id: string;
  threadId: string;
  groupId: string;
  userId: string;
  doctorId: string;
  patientId?: string;
  visitId?: string;
  kind: RunKind;
  input: unknown;
  config: unknown;
  correlationId?: string;
  continuation?: Continuation;
}

const VIEW = `id AS run_id, thread_id, status, ${isoTime('created_at')}, kind, ${isoTime('started_at')},
  ${isoTime('ended_at')}, output, error, patient_id, visit_id`;
const STORED = `${VIEW}, group_id, user_id, doctor_id, input, config, continuation, attempts, correlation_id`;
const ACTIVE = `status IN ('pending', 'running')`;

export const isEnded = (status: RunStatus) => status === 'completed' || status === 'failed';

/**
 * Locks the thread row for the rest of the transaction, so run creation on one thread is serial
 * (the `reject` check cannot race). Returns false when the group has no such thread.
 */
export async function lockThread(db: Queryable, groupId: string, threadId: string): Promise<boolean> {
  const { rowCount } = await db.query(`SELECT 1 FROM threads WHERE id = $1 AND group_id = $2 FOR UPDATE`, [threadId, groupId]);
  return rowCount === 1;
}

export async function threadHasActiveRun(db: Queryable, threadId: string): Promise<boolean> {
  const { rowCount } = await db.query(`SELECT 1 FROM runs WHERE thread_id = $1 AND ${ACTIVE} LIMIT 1`, [threadId]);
  return rowCount === 1;
}

/** Inserts a pending run; its NOTIFY goes out with the same statement (one round trip). */
export async function insertRun(db: Queryable, r: NewRun): Promise<Run> {
  const { rows } = await db.query<Run>(
    `WITH ins AS (
       INSERT INTO runs (id, thread_id, group_id, user_id, doctor_id, patient_id, kind, input, config, correlation_id, continuation, visit_id)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $12, $13)
       RETURNING *)
     SELECT ${VIEW} FROM ins, LATERAL (SELECT pg_notify($11, $1::text)) AS n`,
    [
      r.id,
      r.threadId,
      r.groupId,
      r.userId,
      r.doctorId,
      r.patientId ?? null,
      r.kind,
      JSON.stringify(r.input),
      JSON.stringify(r.config),
      r.correlationId ?? null,
      CHANNELS.runs,
      r.continuation === undefined ? null : JSON.stringify(r.continuation),
      r.visitId ?? null,
    ],
  );
  return rows[0];
}

export async function findRun(db: Queryable, groupId: string, threadId: string, runId: string): Promise<Run | undefined> {
  const { rows } = await db.query<Run>(`SELECT ${VIEW} FROM runs WHERE id = $1 AND thread_id = $2 AND group_id = $3`, [
    runId,
    threadId,
    groupId,
  ]);
  return rows[0];
}

/** Runs of a thread, newest first (creation time, as the queue orders them, then sequence). */
export async function listRuns(
  db: Queryable,
  threadId: string,
  page: { limit: number; offset: number; status?: RunStatus },
): Promise<Run[]> {
  const { rows } = await db.query<Run>(
    `SELECT ${VIEW} FROM runs
     WHERE thread_id = $1 AND ($4::text IS NULL OR status = $4)
     ORDER BY created_at DESC, seq DESC LIMIT $2 OFFSET $3`,
    [threadId, page.limit, page.offset, page.status ?? null],
  );
  return rows;
}

export async function loadRun(db: Queryable, runId: string): Promise<StoredRun | undefined> {
  const { rows } = await db.query<StoredRun>(`SELECT ${STORED} FROM runs WHERE id = $1`, [runId]);
  return rows[0];
}

export async function runStatus(db: Queryable, runId: string): Promise<RunStatus | undefined> {
  const { rows } = await db.query<{ status: RunStatus }>(`SELECT status FROM runs WHERE id = $1`, [runId]);
  return rows[0]?.status;
}

/**
 * pending|running -> running, counting the attempt, with its NOTIFY in the same statement. A retry
 * after a crash finds it `running` already, which is fine; an ended run (cancelled) is never
 * reopened: undefined then.
 */
export async function markRunning(db: Queryable, runId: string): Promise<StoredRun | undefined> {
  const { rows } = await db.query<StoredRun>(
    `WITH upd AS (
       UPDATE runs SET status = 'running', started_at = COALESCE(started_at, now()), attempts = attempts + 1
       WHERE id = $1 AND ${ACTIVE}
       RETURNING *)
     SELECT ${STORED} FROM upd, LATERAL (SELECT pg_notify($2, $1::text)) AS n`,
    [runId, CHANNELS.runs],
  );
  return rows[0];
}

/**
 * Ends an active run (with its NOTIFY, sent on commit). The status guard makes the first ending
 * win: a run cancelled while the engine worked keeps its `Cancelled` error, and a retried job
 * cannot end a run twice.
 */
export async function endRun(
  db: Queryable,
  runId: string,
  outcome: { status: 'completed'; output: unknown; usage?: TokenUsage } | { status: 'failed'; error: RunError },
  scope?: { groupId: string; threadId: string },
): Promise<StoredRun | undefined> {
  const { rows } = await db.query<StoredRun>(
    `WITH upd AS (
       UPDATE runs SET status = $2, output = $3, error = $4, usage = $8, ended_at = now()
       WHERE id = $1 AND ${ACTIVE} AND ($5::text IS NULL OR group_id = $5) AND ($6::uuid IS NULL OR thread_id = $6)
       RETURNING *)
     SELECT ${STORED} FROM upd, LATERAL (SELECT pg_notify($7, $1::text)) AS n`,
    [
      runId,
      outcome.status,
      outcome.status === 'completed' ? JSON.stringify(outcome.output) : null,
      outcome.status === 'failed' ? JSON.stringify(outcome.error) : null,
      scope?.groupId ?? null,
      scope?.threadId ?? null,
      CHANNELS.runs,
      outcome.status === 'completed' && outcome.usage ? JSON.stringify(outcome.usage) : null,
    ],
  );
  return rows[0];
}

/** The thread's latest completed extraction run: the visit a later chat on the thread is about. */
export async function latestExtraction(db: Queryable, threadId: string): Promise<Pick<StoredRun, 'input' | 'config'> | undefined> {
  const { rows } = await db.query<Pick<StoredRun, 'input' | 'config'>>(
    `SELECT input, config FROM runs
      WHERE thread_id = $1 AND kind = 'extraction' AND status = 'completed'
      ORDER BY ended_at DESC NULLS LAST, created_at DESC LIMIT 1`,
    [threadId],
  );
  return rows[0];
}
