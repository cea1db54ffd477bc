import type { Queryable } from '../../db/pool.js';
import { isoTime } from '../../db/sql.js';
import { JOB_TABLE } from '../../jobs/pgboss.repo.js';
import { PIPELINE_PROGRESS_SQL } from '../pipeline/documentation-pipelines.repo.js';

// What the operations console reads. Ids, states, counts and durations only: the columns that
// hold PHI (run input/output, transcripts, note text, event data, call answers) are never
// selected here; details.repo.ts reads them for one item, on an operator's click.

const ms = (from: string, to: string) =>
  `CASE WHEN ${from} IS NOT NULL THEN GREATEST(0, round(extract(epoch FROM (COALESCE(${to}, now()) - ${from})) * 1000))::bigint END`;

export async function recentRuns(db: Queryable, limit: number, status?: string) {
  const { rows } = await db.query(
    `SELECT id AS run_id, thread_id, group_id, kind, status, attempts, error->>'error' AS error,
            ${isoTime('created_at')}, ${isoTime('started_at')}, ${isoTime('ended_at')},
            ${ms('started_at', 'ended_at')} AS duration_ms, ${ms('created_at', 'started_at')} AS wait_ms
       FROM runs WHERE ($2::text IS NULL OR status = $2)
      ORDER BY created_at DESC, seq DESC LIMIT $1`,
    [limit, status ?? null],
  );
  return rows;
}

export async function recentCodifications(db: Queryable, limit: number, status?: string) {
  const { rows } = await db.query(
    `SELECT id AS run_id, group_id, model, status, attempts, engine, round(engine_ms)::int AS engine_ms, note_bytes, pdf_bytes,
            jsonb_array_length(result->'final_code_assessments') AS final_codes, error->>'error' AS error,
            ${isoTime('created_at')}, ${isoTime('ended_at')}, ${ms('created_at', 'ended_at')} AS duration_ms
       FROM codify_runs WHERE ($2::text IS NULL OR status = $2)
      ORDER BY created_at DESC LIMIT $1`,
    [limit, status ?? null],
  );
  return rows;
}

/** Inbound events and the work they started: the pipeline state holds only step ids. */
export async function recentPipelines(db: Queryable, limit: number, status?: string) {
  const { rows } = await db.query(
    `SELECT e.id, e.event_id, source, type, status, group_id, correlation_id, attempts,
            COALESCE(${PIPELINE_PROGRESS_SQL}, '{}'::jsonb) AS pipeline, error->>'error' AS error,
            ${isoTime('received_at')}, ${isoTime('processed_at')}, ${ms('received_at', 'processed_at')} AS duration_ms
       FROM inbound_events e LEFT JOIN documentation_pipelines p ON p.event_id = e.id
      WHERE ($2::text IS NULL OR status = $2)
      ORDER BY received_at DESC LIMIT $1`,
    [limit, status ?? null],
  );
  return rows;
}

export interface InboundCount {
  source: string;
  type: string;
  status: string;
  last_hour: number;
  last_day: number;
}

export async function inboundCounts(db: Queryable): Promise<InboundCount[]> {
  const { rows } = await db.query<InboundCount>(
    `SELECT source, type, status,
            count(*) FILTER (WHERE received_at > now() - interval '1 hour')::int AS last_hour,
            count(*)::int AS last_day
       FROM inbound_events WHERE received_at > now() - interval '1 day'
      GROUP BY source, type, status ORDER BY source, type, status`,
  );
  return rows;
}

/** Endpoints with delivery outcomes over the last day and their latest failed attempt; never the secret. */
export async function endpointHealth(db: Queryable) {
  const { rows } = await db.query(
    `SELECT e.id, regexp_replace(e.url, '[?#].*$', '') AS url, e.group_id, e.description, e.status, e.disabled_reason,
            CASE WHEN e.status = 'disabled' THEN 'disabled' WHEN e.failing THEN 'failing' ELSE 'ok' END AS health,
            ${isoTime('e.health_since', 'health_since')}, e.consecutive_failures,
            ${isoTime('e.created_at', 'created_at')}, ${isoTime('e.updated_at', 'updated_at')},
            COALESCE(d.delivered, 0) AS delivered, COALESCE(d.dead, 0) AS dead, COALESCE(d.pending, 0) AS pending,
            COALESCE(a.attempts, 0) AS attempts, COALESCE(a.succeeded, 0) AS succeeded,
            CASE WHEN a.attempts > 0 THEN round(100.0 * a.succeeded / a.attempts, 1)::float END AS success_rate,
            f.last_error, f.last_status_code, ${isoTime('f.at', 'last_error_at')}
       FROM webhook_endpoints e
       LEFT JOIN LATERAL (
         SELECT count(*) FILTER (WHERE status = 'delivered')::int AS delivered, count(*) FILTER (WHERE status = 'dead')::int AS dead,
                count(*) FILTER (WHERE status = 'pending')::int AS pending
           FROM webhook_deliveries WHERE endpoint_id = e.id AND (status IN ('dead', 'pending') OR updated_at > now() - interval '1 day')) d ON true
       LEFT JOIN LATERAL (
         SELECT count(*)::int AS attempts, count(*) FILTER (WHERE x.status_code BETWEEN 200 AND 299)::int AS succeeded
           FROM webhook_deliveries wd JOIN webhook_delivery_attempts x ON x.delivery_id = wd.id
          WHERE wd.endpoint_id = e.id AND x.created_at > now() - interval '1 day') a ON true
       LEFT JOIN LATERAL (
         SELECT COALESCE(x.error, 'HTTP ' || x.status_code) AS last_error, x.status_code AS last_status_code, x.created_at AS at
           FROM webhook_deliveries wd JOIN webhook_delivery_attempts x ON x.delivery_id = wd.id
          WHERE wd.endpoint_id = e.id AND (x.status_code IS NULL OR x.status_code NOT BETWEEN 200 AND 299)
          ORDER BY x.created_at DESC LIMIT 1) f ON true
      WHERE e.status <> 'deleted'
      ORDER BY (e.status = 'disabled') DESC, e.failing DESC, COALESCE(d.dead, 0) DESC, e.created_at DESC
      LIMIT 200`,
  );
  return rows;
}

export async function deadDeliveries(db: Queryable, limit: number, endpointId?: string) {
  const { rows } = await db.query(
    `SELECT d.id, d.endpoint_id, regexp_replace(e.url, '[?#].*$', '') AS endpoint_url, e.status AS endpoint_status,
            d.event_id, o.type AS event_type, d.attempt_count, d.last_status_code, d.last_error,
            ${isoTime('d.created_at', 'created_at')}, ${isoTime('d.updated_at', 'died_at')}
       FROM webhook_deliveries d JOIN webhook_endpoints e ON e.id = d.endpoint_id JOIN outbox o ON o.id = d.event_id
      WHERE d.status = 'dead' AND ($2::uuid IS NULL OR d.endpoint_id = $2) AND e.status <> 'deleted'
      ORDER BY d.updated_at DESC LIMIT $1`,
    [limit, endpointId ?? null],
  );
  return rows;
}

export async function callCounts(db: Queryable) {
  const { rows } = await db.query(
    `SELECT status, count(*)::int AS total,
            count(*) FILTER (WHERE created_at > now() - interval '1 day')::int AS last_day,
            round(extract(epoch FROM now() - min(created_at)))::int AS oldest_seconds
       FROM calls GROUP BY status ORDER BY status`,
  );
  return rows;
}

export interface MinutePoint {
  minute: string;
  runs_created: number;
  runs_failed: number;
  events_received: number;
  events_failed: number;
  deliveries_delivered: number;
  deliveries_dead: number;
  queue_waiting: number;
}

/**
 * Per-minute counts over the last hour, from the database (so every process shows the same):
 * runs, inbound events and deliveries, and the jobs waiting at the end of each minute
 * (from pg-boss's job rows, kept after completion).
 */
export async function minuteSeries(db: Queryable): Promise<MinutePoint[]> {
  const { rows } = await db.query<MinutePoint>(
    `WITH m AS (
       SELECT generate_series(date_trunc('minute', now()) - interval '59 minutes', date_trunc('minute', now()), interval '1 minute') AS t),
     runs_c AS (SELECT date_trunc('minute', created_at) AS t, count(*)::int AS n FROM runs WHERE created_at > now() - interval '1 hour' GROUP BY 1),
     runs_f AS (SELECT date_trunc('minute', ended_at) AS t, count(*)::int AS n FROM runs
                 WHERE status = 'failed' AND ended_at > now() - interval '1 hour' GROUP BY 1),
     ev_r AS (SELECT date_trunc('minute', received_at) AS t, count(*)::int AS n FROM inbound_events WHERE received_at > now() - interval '1 hour' GROUP BY 1),
     ev_f AS (SELECT date_trunc('minute', processed_at) AS t, count(*)::int AS n FROM inbound_events
               WHERE status = 'failed' AND processed_at > now() - interval '1 hour' GROUP BY 1),
     dl_ok AS (SELECT date_trunc('minute', delivered_at) AS t, count(*)::int AS n FROM webhook_deliveries
                WHERE status = 'delivered' AND delivered_at > now() - interval '1 hour' GROUP BY 1),
     dl_dead AS (SELECT date_trunc('minute', updated_at) AS t, count(*)::int AS n FROM webhook_deliveries
                  WHERE status = 'dead' AND updated_at > now() - interval '1 hour' GROUP BY 1),
     jobs AS (SELECT created_on, start_after, started_on FROM ${JOB_TABLE}
               WHERE created_on <= now() AND (started_on IS NULL OR started_on > now() - interval '1 hour'))
     SELECT to_char(m.t AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS minute,
            COALESCE(runs_c.n, 0) AS runs_created, COALESCE(runs_f.n, 0) AS runs_failed,
            COALESCE(ev_r.n, 0) AS events_received, COALESCE(ev_f.n, 0) AS events_failed,
            COALESCE(dl_ok.n, 0) AS deliveries_delivered, COALESCE(dl_dead.n, 0) AS deliveries_dead,
            (SELECT count(*)::int FROM jobs j WHERE j.created_on < m.t + interval '1 minute'
                AND j.start_after < m.t + interval '1 minute'
                AND (j.started_on IS NULL OR j.started_on >= m.t + interval '1 minute')) AS queue_waiting
       FROM m
       LEFT JOIN runs_c ON runs_c.t = m.t LEFT JOIN runs_f ON runs_f.t = m.t
       LEFT JOIN ev_r ON ev_r.t = m.t LEFT JOIN ev_f ON ev_f.t = m.t
       LEFT JOIN dl_ok ON dl_ok.t = m.t LEFT JOIN dl_dead ON dl_dead.t = m.t
      ORDER BY m.t`,
  );
  return rows;
}
