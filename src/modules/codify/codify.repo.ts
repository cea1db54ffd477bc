import type { Queryable } from '../../db/pool.js';
import { isoTime } from '../../db/sql.js';
import type { CodeAssessment, CodifyModel } from '../../engine/engine.js';
import type { Continuation } from '../../jobs/continuation.js';

export type CodifyStatus = 'pending' | 'running' | 'completed' | 'failed';

export interface CodifyOutcome {
  final_code_assessments: CodeAssessment[];
  discarded_code_assessments: CodeAssessment[];
}

/** `{status, error, details}`: the HTTP answer a failed codification gives its caller. */
export interface CodifyError {
  status: number;
  error: string;
  details: string;
}

export interface CodifyRun {
  run_id: string;
  group_id: string;
  status: CodifyStatus;
  model: CodifyModel;
  result: CodifyOutcome | null;
  error: CodifyError | null;
  engine: string | null;
  engine_ms: number | null;
  created_at: string;
  started_at: string | null;
  ended_at: string | null;
}

export interface NewCodifyRun {
  id: string;
  groupId: string;
  userId: string;
  doctorId: string;
  patientId?: string;
  model: CodifyModel;
  text: string;
  noteBytes: number;
  pdfBytes?: number;
  pdfPages?: number;
  correlationId?: string;
  /** Sent in the transaction that ends the codification, however it ends (a pipeline's next step). */
  continuation?: Continuation;
}

const COLUMNS = `id AS run_id, group_id, status, model, result, error, engine, engine_ms,
  ${isoTime('created_at')}, ${isoTime('started_at')}, ${isoTime('ended_at')}`;

export async function insertCodifyRun(db: Queryable, r: NewCodifyRun): Promise<void> {
  await db.query(
    `INSERT INTO codify_runs (id, group_id, user_id, doctor_id, patient_id, model, input_text, note_bytes, pdf_bytes,
                              pdf_pages, correlation_id, continuation)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)`,
    [
      r.id,
      r.groupId,
      r.userId,
      r.doctorId,
      r.patientId ?? null,
      r.model,
      r.text,
      r.noteBytes,
      r.pdfBytes ?? null,
      r.pdfPages ?? null,
      r.correlationId ?? null,
      r.continuation === undefined ? null : JSON.stringify(r.continuation),
    ],
  );
}

export async function findCodifyRun(db: Queryable, id: string, groupId?: string): Promise<CodifyRun | undefined> {
  const { rows } = await db.query<CodifyRun>(`SELECT ${COLUMNS} FROM codify_runs WHERE id = $1 AND ($2::text IS NULL OR group_id = $2)`, [
    id,
    groupId ?? null,
  ]);
  return rows[0];
}

export interface ClaimedRun {
  id: string;
  group_id: string;
  user_id: string;
  doctor_id: string;
  model: CodifyModel;
  input_text: string;
  /** UTF-8 bytes of medical_note at the start of input_text (the PDF's text follows) */
  note_bytes: number;
  correlation_id: string | null;
}

/** Marks a pending (or retried running) codification as running; undefined once it has ended. */
export async function claimCodifyRun(db: Queryable, id: string): Promise<ClaimedRun | undefined> {
  const { rows } = await db.query<ClaimedRun>(
    `UPDATE codify_runs SET status = 'running', started_at = coalesce(started_at, now()), attempts = attempts + 1
     WHERE id = $1 AND status IN ('pending', 'running') AND input_text IS NOT NULL
     RETURNING id, group_id, user_id, doctor_id, model, input_text, note_bytes, correlation_id`,
    [id],
  );
  return rows[0];
}

/**
 * Ends a codification that has not ended yet, dropping its input text; undefined when it had ended
 * already (a time-out and the job racing), else its continuation (null: none), to send in the
 * same transaction.
 */
export async function endCodifyRun(
  db: Queryable,
  id: string,
  end: { result?: CodifyOutcome; error?: CodifyError; engine?: string; engineMs?: number },
): Promise<{ continuation: Continuation | null } | undefined> {
  const { rows } = await db.query<{ continuation: Continuation | null }>(
    `UPDATE codify_runs
     SET status = $2, result = $3, error = $4, engine = coalesce($5, engine), engine_ms = coalesce($6, engine_ms),
         input_text = NULL, ended_at = now()
     WHERE id = $1 AND status IN ('pending', 'running')
     RETURNING continuation`,
    [
      id,
      end.error ? 'failed' : 'completed',
      end.result ? JSON.stringify(end.result) : null,
      end.error ? JSON.stringify(end.error) : null,
      end.engine ?? null,
      end.engineMs ?? null,
    ],
  );
  return rows[0];
}

/** Whether a codification continues something when it ends (a pipeline's), rather than answering a request. */
export async function hasContinuation(db: Queryable, id: string): Promise<boolean> {
  const { rows } = await db.query(`SELECT 1 FROM codify_runs WHERE id = $1 AND continuation IS NOT NULL`, [id]);
  return rows.length > 0;
}

/** Wakes the request awaiting this codification, in any process (sent when the transaction commits). */
export async function notifyCodifyEnded(db: Queryable, id: string, channel: string): Promise<void> {
  await db.query('SELECT pg_notify($1, $2)', [channel, id]);
}
