import type { Queryable } from '../../db/pool.js';
import { isoTime } from '../../db/sql.js';

// One item's full record for the console's details view: may hold PHI (a run's output, an
// event's error details), so it is read only on an operator's explicit click, and audited.

export async function runDetails(db: Queryable, runId: string) {
  const { rows } = await db.query(
    `SELECT id AS run_id, thread_id, group_id, kind, status, attempts, correlation_id, output, error,
            ${isoTime('created_at')}, ${isoTime('started_at')}, ${isoTime('ended_at')}
       FROM runs WHERE id = $1`,
    [runId],
  );
  return rows[0] as Record<string, unknown> | undefined;
}

export async function pipelineDetails(db: Queryable, rowId: string) {
  const { rows } = await db.query(
    `SELECT id, event_id, source, type, status, group_id, correlation_id, attempts, pipeline, error,
            ${isoTime('occurred_at')}, ${isoTime('received_at')}, ${isoTime('processed_at')}
       FROM inbound_events WHERE id = $1`,
    [rowId],
  );
  return rows[0] as Record<string, unknown> | undefined;
}
