import type { Queryable } from '../../db/pool.js';
import { isoTime } from '../../db/sql.js';

export interface Thread {
  thread_id: string;
  created_at: string;
  updated_at: string;
  status: string;
  metadata: Record<string, unknown>;
}

export interface ThreadMessage {
  role: 'user' | 'assistant' | 'system';
  content: string;
  run_id: string | null;
  created_at: string;
}

export interface NewThread {
  id: string;
  groupId: string;
  userId: string;
  doctorId: string;
  patientId?: string;
  metadata?: Record<string, unknown>;
  correlationId?: string;
}

const COLUMNS = `id AS thread_id, ${isoTime('created_at')}, ${isoTime('updated_at')}, status, metadata`;

/** Inserts a thread; an id that exists already (a retried pipeline step) returns the stored one. */
export async function insertThread(db: Queryable, t: NewThread): Promise<Thread> {
  const { rows } = await db.query<Thread>(
    `WITH ins AS (
       INSERT INTO threads (id, group_id, user_id, doctor_id, patient_id, metadata, correlation_id)
       VALUES ($1, $2, $3, $4, $5, $6, $7)
       ON CONFLICT (id) DO NOTHING
       RETURNING *)
     SELECT ${COLUMNS} FROM ins
     UNION ALL
     SELECT ${COLUMNS} FROM threads WHERE id = $1 AND NOT EXISTS (SELECT 1 FROM ins)`,
    [t.id, t.groupId, t.userId, t.doctorId, t.patientId ?? null, JSON.stringify(t.metadata ?? {}), t.correlationId ?? null],
  );
  return rows[0];
}

export async function findThread(db: Queryable, groupId: string, id: string): Promise<Thread | undefined> {
  const { rows } = await db.query<Thread>(`SELECT ${COLUMNS} FROM threads WHERE id = $1 AND group_id = $2`, [id, groupId]);
  return rows[0];
}

export async function listThreadMessages(db: Queryable, threadId: string): Promise<ThreadMessage[]> {
  const { rows } = await db.query<ThreadMessage>(
    `SELECT role, content, run_id, ${isoTime('created_at')} FROM thread_messages WHERE thread_id = $1 ORDER BY id`,
    [threadId],
  );
  return rows;
}

export async function appendThreadMessages(
  db: Queryable,
  threadId: string,
  runId: string | null,
  messages: { role: string; content: string }[],
): Promise<void> {
  if (messages.length === 0) return;
  await db.query(
    `INSERT INTO thread_messages (thread_id, run_id, role, content)
     SELECT $1, $2, m.role, m.content FROM jsonb_to_recordset($3::jsonb) AS m(role text, content text)`,
    [threadId, runId, JSON.stringify(messages)],
  );
  await db.query(`UPDATE threads SET updated_at = now() WHERE id = $1`, [threadId]);
}
