import type { Queryable } from '../../db/pool.js';
import { isoTime } from '../../db/sql.js';
import { PIPELINE_PROGRESS_SQL } from '../pipeline/documentation-pipelines.repo.js';

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
    `SELECT e.id, e.event_id, source, type, status, group_id, correlation_id, attempts,
            COALESCE(${PIPELINE_PROGRESS_SQL}, '{}'::jsonb) AS pipeline, error,
            ${isoTime('occurred_at')}, ${isoTime('received_at')}, ${isoTime('processed_at')}
       FROM inbound_events e LEFT JOIN documentation_pipelines p ON p.event_id = e.id WHERE e.id = $1`,
    [rowId],
  );
  return rows[0] as Record<string, unknown> | undefined;
}
