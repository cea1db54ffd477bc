/**
 * Where one visit's time went, hop by hop: every timestamp the rows of a visit carry (the event,
 * its transcription, run, codification, outbox event and delivery) and the moment each of its
 * pg-boss jobs was fetched (pgboss.job.started_on), in time order, between the bench's post and
 * the note.ready's arrival. Read from rows every layout since 4de7bb1 keeps, so two trees compare
 * (bench/compare-trees.ts). A row's time is its transaction's start (now()); a job's fetch is the
 * fetching statement's. So a gap `A -> B` is the work between two such moments, whatever code
 * ran in it: a queue hop (commit, NOTIFY, fetch) reads as `... -> <queue> fetched`.
 */
import pg from 'pg';
import { pct } from './lib/stats.js';
import type { PipelineService } from './pipeline-latency.js';

/** One visit: its named moments, ms after its post, in time order. */
export type Timeline = Array<{ label: string; ms: number }>;

/** The order of moments that share one transaction's time (a row and the job sent with it). */
const ORDER = [
  'post',
  'event stored',
  'inbound-event fetched',
  'transcription',
  'advance 1 fetched',
  'run created',
  'run-execute fetched',
  'run started',
  'run ended',
  'advance 2 fetched',
  'codify created',
  'codify fetched',
  'codify started',
  'codify ended',
  'advance 3 fetched',
  'outbox',
  'delivery created',
  'webhook-delivery fetched',
  'arrived',
];

const ms = (column: string, as: string) => `(extract(epoch FROM ${column}) * 1000)::float8 AS "${as}"`;

/** The timelines of the visits of `patients` made by visitLatency(), by patient (visits with a row missing are left out). */
export async function visitTimelines(service: PipelineService, patients: string[]): Promise<Map<string, Timeline>> {
  const client = new pg.Client({ connectionString: service.dbUrl });
  await client.connect();
  try {
    type Row = Record<string, number | null> & { patient: string; advances: number[] | null };
    const { rows } = await client.query<Row>(
      `SELECT e.data->>'patient_id' AS patient, ${ms('e.received_at', 'event stored')}, ${ms('t.created_at', 'transcription')},
              ${ms('r.created_at', 'run created')}, ${ms('r.started_at', 'run started')}, ${ms('r.ended_at', 'run ended')},
              ${ms('c.created_at', 'codify created')}, ${ms('c.started_at', 'codify started')}, ${ms('c.ended_at', 'codify ended')},
              ${ms('o.created_at', 'outbox')}, ${ms('d.created_at', 'delivery created')},
              (SELECT ${ms('min(j.started_on)', 'x')} FROM pgboss.job j WHERE j.name = 'inbound-event'
                  AND (j.data->>'id' = e.id::text OR j.data->'ids' ? e.id::text)) AS "inbound-event fetched",
              (SELECT ${ms('min(j.started_on)', 'x')} FROM pgboss.job j WHERE j.name = 'run-execute' AND j.data->>'run_id' = r.id::text)
                AS "run-execute fetched",
              (SELECT ${ms('min(j.started_on)', 'x')} FROM pgboss.job j WHERE j.name = 'codify' AND j.data->>'codify_run_id' = c.id::text)
                AS "codify fetched",
              (SELECT ${ms('min(j.started_on)', 'x')} FROM pgboss.job j WHERE j.name = 'webhook-delivery' AND j.created_on = d.created_at)
                AS "webhook-delivery fetched",
              ARRAY(SELECT (extract(epoch FROM j.started_on) * 1000)::float8 FROM pgboss.job j
                     WHERE j.name = 'pipeline-advance' AND j.data->>'event_id' = e.id::text ORDER BY j.created_on) AS advances
         FROM inbound_events e
         JOIN transcriptions t ON t.patient_id = e.data->>'patient_id'
         JOIN runs r ON r.kind = 'extraction' AND r.patient_id = e.data->>'patient_id'
         JOIN codify_runs c ON c.patient_id = e.data->>'patient_id'
         JOIN outbox o ON o.type = 'note.ready' AND o.data->>'patient_id' = e.data->>'patient_id'
         JOIN webhook_deliveries d ON d.event_id = o.id
        WHERE e.type = 'encounter.transcript' AND e.data->>'patient_id' = ANY ($1)`,
      [patients],
    );
    const out = new Map<string, Timeline>();
    const seen = new Set<string>();
    for (const row of rows) {
      if (seen.has(row.patient)) {
        out.delete(row.patient); // more than one of a row: not a visit of its own
        continue;
      }
      seen.add(row.patient);
      const posted = service.postedAt.get(row.patient);
      const arrived = service.arrivedAt.get(row.patient);
      if (posted === undefined || arrived === undefined) continue;
      const { patient: _patient, advances: jobs, ...times } = row;
      const at: Record<string, number | null | undefined> = { ...times, post: posted, arrived };
      const advances = jobs ?? [];
      // Before the pipeline had its own table (4de7bb1) its first step ran in the event's job: its
      // advances are the run's end and the codification's end.
      const names = advances.length === 3 ? ['advance 1', 'advance 2', 'advance 3'] : ['advance 2', 'advance 3'];
      advances.forEach((t, i) => names[i] && (at[`${names[i]} fetched`] = t));
      const points = ORDER.filter((label) => typeof at[label] === 'number').map((label) => ({ label, ms: (at[label] as number) - posted }));
      points.sort((a, b) => a.ms - b.ms || ORDER.indexOf(a.label) - ORDER.indexOf(b.label));
      out.set(row.patient, points);
    }
    return out;
  } finally {
    await client.end();
  }
}

/**
 * Each gap between consecutive moments (`A -> B`) of each series of timelines (a tree's visits),
 * its p50 over the visits that have it (undefined where a series has none), in pipeline order.
 */
export function gapMedians(series: Array<Iterable<Timeline>>): Array<{ gap: string; p50: Array<number | undefined>; visits: number[] }> {
  const gaps = new Map<string, number[][]>();
  const rank = new Map<string, number>();
  series.forEach((timelines, k) => {
    for (const t of timelines) {
      for (let i = 1; i < t.length; i++) {
        const gap = `${t[i - 1].label} -> ${t[i].label}`;
        if (!gaps.has(gap))
          gaps.set(
            gap,
            series.map(() => []),
          );
        gaps.get(gap)![k].push(t[i].ms - t[i - 1].ms);
        rank.set(gap, ORDER.indexOf(t[i].label) * 100 + ORDER.indexOf(t[i - 1].label));
      }
    }
  });
  return [...gaps]
    .sort((a, b) => rank.get(a[0])! - rank.get(b[0])!)
    .map(([gap, xs]) => ({ gap, p50: xs.map((x) => (x.length ? pct(x, 50) : undefined)), visits: xs.map((x) => x.length) }));
}
