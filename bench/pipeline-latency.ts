/**
 * The EHR documentation pipeline through the front door of the real service (`src/main.ts` in a
 * child process, ROLE=all, local engine): a signed `encounter.transcript` in, the signed
 * `note.ready` out at a local webhook receiver (transcription, extraction run, note, codes,
 * delivery). Two figures:
 * - visits one at a time: webhook -> note.ready p50;
 * - a catalog event (`center.upserted`) posted while a burst of visits is in the pipeline: the
 *   time until the event reads `completed`. Catalog and call events must not queue behind
 *   documentation pipelines.
 *
 *   tsx bench/pipeline-latency.ts [--visits 10] [--burst 8]
 */
import { createHmac, randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { SECRET, startMeasured, stopServer } from './ingest.js';
import { createBenchDatabase } from './lib/database.js';
import { BENCH_JWT_SECRET } from './lib/runtime.js';
import { isMain, runStandalone } from './lib/standalone.js';
import { pct } from './lib/stats.js';
import type { BenchContext, BenchResult } from './lib/types.js';

export interface PipelineBenchOptions extends BenchContext {
  visits?: number;
  burst?: number;
}

export const OPERATOR_KEY = 'bench-operator-key-0123456789abcdef';
export const GROUP = 'bench-pipeline-group';
const TRANSCRIPT = [
  '[doctor] hi, what brings you in today?',
  "[patient] i've had a cough and a fever for three days.",
  '[doctor] any chest pain?',
  '[patient] no chest pain. i am allergic to penicillin, it gives me hives.',
  '[doctor] your temperature is 38.4 and lungs have crackles on the right.',
  '[doctor] this looks like community acquired pneumonia. i will start azithromycin and see you in one week.',
].join('\n');

function signed(type: string, data: Record<string, unknown>): { id: string; body: string; signature: string } {
  const id = `bench-${randomUUID()}`;
  const body = JSON.stringify({ id, type, occurred_at: new Date().toISOString(), data });
  return { id, body, signature: `sha256=${createHmac('sha256', SECRET).update(body).digest('hex')}` };
}

export async function post(port: number, event: { body: string; signature: string }): Promise<void> {
  const res = await fetch(`http://127.0.0.1:${port}/api/v1/webhooks/ehr`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-integration-signature': event.signature },
    body: event.body,
  });
  if (res.status !== 202) throw new Error(`webhook answered ${res.status}: ${await res.text()}`);
}

export function encounter(patient: string) {
  return signed('encounter.transcript', {
    group_id: GROUP,
    doctor_id: 'bench-doctor',
    patient_id: patient,
    transcript: TRANSCRIPT,
    duration_seconds: 300,
    language: 'en',
    template: 'SOAP',
  });
}

export async function eventStatus(port: number, id: string): Promise<string> {
  const res = await fetch(`http://127.0.0.1:${port}/api/v1/webhooks/events/${encodeURIComponent(id)}`, {
    headers: { 'x-api-key': OPERATOR_KEY },
  });
  if (res.status !== 200) return `http ${res.status}`;
  return ((await res.json()) as { status: string }).status;
}

export async function until(what: string, done: () => boolean | Promise<boolean>, timeoutMs = 120_000): Promise<void> {
  const deadline = performance.now() + timeoutMs;
  while (!(await done())) {
    if (performance.now() > deadline) throw new Error(`${what}: not after ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 5));
  }
}

/** The service of one tree on a fresh database, with a receiver subscribed to its `note.ready`. */
export interface PipelineService {
  port: number;
  /** performance.now() at which each patient's note.ready arrived. */
  arrived: Map<string, number>;
  /** Wall-clock ms (Date.now(), the clock PostgreSQL's now() reads on this machine) of visitLatency()'s posts and arrivals. */
  postedAt: Map<string, number>;
  arrivedAt: Map<string, number>;
  /** Its database (read by stageTimes()). */
  dbUrl: string;
  stop(): Promise<void>;
}

/**
 * `src/main.ts` of `root` (this tree unless another is benchmarked: bench/compare-trees.ts) in a
 * child process, ROLE=all, on a fresh database of `adminUrl`, and a local receiver subscribed to
 * `note.ready` for the bench group. `env` adds to (or overrides) the service's environment.
 */
export async function startPipelineService(
  adminUrl: string,
  options: { root?: string; name?: string; env?: NodeJS.ProcessEnv } = {},
): Promise<PipelineService> {
  const arrived = new Map<string, number>();
  const arrivedAt = new Map<string, number>();
  const postedAt = new Map<string, number>();
  const receiver = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      try {
        const event = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { type?: string; data?: { patient_id?: string } };
        if (event.type === 'note.ready' && event.data?.patient_id) {
          arrived.set(event.data.patient_id, performance.now());
          arrivedAt.set(event.data.patient_id, Date.now());
        }
      } catch {
        // not ours
      }
      res.writeHead(200).end();
    });
  });
  await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
  const db = await createBenchDatabase(adminUrl, 'pipeline');
  const env = {
    NODE_ENV: 'test',
    DATABASE_URL: db.url,
    JWT_SECRET: BENCH_JWT_SECRET,
    EHR_WEBHOOK_SECRET: SECRET,
    OPERATOR_API_KEYS: `bench:${OPERATOR_KEY}`,
    WEBHOOK_ALLOW_PRIVATE: 'true',
    LOG_LEVEL: 'error',
    ...options.env,
  };
  let server: Awaited<ReturnType<typeof startMeasured>> | undefined;
  const stop = async () => {
    if (server) await stopServer(server.child);
    receiver.close();
    await db.drop();
  };
  try {
    server = await startMeasured(options.name ?? 'app', 'src/main.ts', env, 0, [], options.root);
    const res = await fetch(`http://127.0.0.1:${server.port}/api/v1/webhook-endpoints`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': OPERATOR_KEY },
      body: JSON.stringify({
        url: `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`,
        events: ['note.ready'],
        group_id: GROUP,
      }),
    });
    if (res.status !== 201) throw new Error(`endpoint answered ${res.status}: ${await res.text()}`);
  } catch (err) {
    await stop();
    throw err;
  }
  return { port: server.port, arrived, arrivedAt, postedAt, dbUrl: db.url, stop };
}

/** One visit on its own: a signed `encounter.transcript` posted, ms until its `note.ready` arrives. */
export async function visitLatency(service: PipelineService, patient: string): Promise<number> {
  const started = performance.now();
  service.postedAt.set(patient, Date.now());
  await post(service.port, encounter(patient));
  await until(`note.ready for ${patient}`, () => service.arrived.has(patient));
  return service.arrived.get(patient)! - started;
}

/**
 * Where one visit's time went, in ms, read from the rows both layouts share (runs, codify_runs,
 * outbox, webhook_deliveries) against the bench's wall clock at the post and at the note.ready's
 * arrival.
 */
export interface StageTimes {
  /** post -> the extraction run created (intake, inbound job, pipeline start). */
  toRun: number;
  /** run created -> started (the run queue). */
  runQueue: number;
  /** the extraction run, started -> ended (the engine's note and its saving). */
  extraction: number;
  /** run ended -> codification created (the pipeline's step to coding). */
  toCodify: number;
  /** codification created -> started (the codify queue). */
  codifyQueue: number;
  /** the codification, started -> ended. */
  codify: number;
  /** the codify engine's own time (codify_runs.engine_ms). */
  codifyEngine: number;
  /** codification ended -> note.ready recorded in the outbox (the pipeline's step to ready). */
  toReady: number;
  /** outbox -> the delivery row created (the outbox dispatcher's fan-out). */
  fanOut: number;
  /** delivery row created -> note.ready at the receiver (the delivery queue, the signed POST). */
  delivery: number;
}

export const STAGES: (keyof StageTimes)[] = [
  'toRun',
  'runQueue',
  'extraction',
  'toCodify',
  'codifyQueue',
  'codify',
  'toReady',
  'fanOut',
  'delivery',
];
export const STAGE_LABELS: Record<keyof StageTimes, string> = {
  toRun: 'post -> run',
  runQueue: 'run queue',
  extraction: 'extraction',
  toCodify: 'run -> codify',
  codifyQueue: 'codify queue',
  codify: 'codify',
  codifyEngine: 'codify engine',
  toReady: 'codify -> outbox',
  fanOut: 'fan-out',
  delivery: 'delivery',
};

/** Stage times of the visits of `patients` made by visitLatency() (one extraction run, codification and delivery each), by patient. */
export async function stageTimes(service: PipelineService, patients: string[]): Promise<Map<string, StageTimes>> {
  const client = new pg.Client({ connectionString: service.dbUrl });
  await client.connect();
  const at = (column: string) => `(extract(epoch FROM ${column}) * 1000)::float8 AS ${column}`;
  try {
    type Row = { patient_id: string; created_at: number; started_at: number; ended_at: number };
    const runs = await client.query<Row>(
      `SELECT patient_id, ${at('created_at')}, ${at('started_at')}, ${at('ended_at')} FROM runs
        WHERE kind = 'extraction' AND patient_id = ANY($1) AND ended_at IS NOT NULL`,
      [patients],
    );
    const codify = await client.query<Row & { engine_ms: number }>(
      `SELECT patient_id, engine_ms, ${at('created_at')}, ${at('started_at')}, ${at('ended_at')} FROM codify_runs
        WHERE patient_id = ANY($1) AND ended_at IS NOT NULL`,
      [patients],
    );
    const deliveries = await client.query<{ patient_id: string; recorded: number; fanned: number }>(
      `SELECT o.data->>'patient_id' AS patient_id, (extract(epoch FROM o.created_at) * 1000)::float8 AS recorded,
              (extract(epoch FROM d.created_at) * 1000)::float8 AS fanned
         FROM outbox o JOIN webhook_deliveries d ON d.event_id = o.id
        WHERE o.type = 'note.ready' AND o.data->>'patient_id' = ANY($1)`,
      [patients],
    );
    const out = new Map<string, StageTimes>();
    for (const p of patients) {
      const r = runs.rows.filter((x) => x.patient_id === p);
      const c = codify.rows.filter((x) => x.patient_id === p);
      const posted = service.postedAt.get(p);
      const arrived = service.arrivedAt.get(p);
      const d = deliveries.rows.filter((x) => x.patient_id === p);
      if (r.length !== 1 || c.length !== 1 || d.length !== 1 || posted === undefined || arrived === undefined) continue;
      out.set(p, {
        toRun: r[0].created_at - posted,
        runQueue: r[0].started_at - r[0].created_at,
        extraction: r[0].ended_at - r[0].started_at,
        toCodify: c[0].created_at - r[0].ended_at,
        codifyQueue: c[0].started_at - c[0].created_at,
        codify: c[0].ended_at - c[0].started_at,
        codifyEngine: c[0].engine_ms,
        toReady: d[0].recorded - c[0].ended_at,
        fanOut: d[0].fanned - d[0].recorded,
        delivery: arrived - d[0].fanned,
      });
    }
    return out;
  } finally {
    await client.end();
  }
}

export function centerEvent(id: string, name: string) {
  return signed('center.upserted', {
    id,
    name,
    address: { line: 'Main St 1', city: 'Madrid', postalCode: '28013', country: 'ES' },
    phone: '+34910000000',
    timezone: 'Europe/Madrid',
  });
}

/**
 * `burst` visits posted at once, then a `center.upserted`: ms until the event reads `completed`,
 * whether that came before the burst's last note.ready, and ms until that last note.ready.
 */
export async function catalogBehindBurst(
  service: PipelineService,
  burst: number,
  tag = 'burst',
): Promise<{ catalogMs: number; beforeLastNote: boolean; burstMs: number }> {
  const patients = Array.from({ length: burst }, (_, i) => `pt-${tag}-${i}`);
  await Promise.all(patients.map((p) => post(service.port, encounter(p))));
  const center = centerEvent(`bench-center-${tag}`, `Bench Center ${tag}`);
  const posted = performance.now();
  await post(service.port, center);
  await until('catalog event completed', async () => (await eventStatus(service.port, center.id)) === 'completed');
  const catalogMs = performance.now() - posted;
  const beforeLastNote = patients.some((p) => !service.arrived.has(p));
  await until('the burst of notes', () => patients.every((p) => service.arrived.has(p)));
  const burstMs = Math.max(...patients.map((p) => service.arrived.get(p)!)) - posted;
  return { catalogMs, beforeLastNote, burstMs };
}

export async function run(options: PipelineBenchOptions): Promise<BenchResult[]> {
  const visits = options.visits ?? 10;
  const burst = options.burst ?? 8;
  const service = await startPipelineService(options.adminUrl);
  try {
    options.log(`pipeline: ${visits} visits one at a time`);
    const times: number[] = [];
    for (let i = 0; i < visits + 2; i++) {
      const ms = await visitLatency(service, `pt-seq-${i}`);
      if (i >= 2) times.push(ms); // the first two warm the pipeline
    }

    options.log(`pipeline: a catalog event behind ${burst} visits`);
    const { catalogMs, beforeLastNote, burstMs } = await catalogBehindBurst(service, burst);
    return [
      {
        name: 'pipeline webhook -> note.ready p50',
        value: pct(times, 50),
        unit: 'ms',
        target: { op: '<=', value: 2_000 },
        note: `${times.length} visits one at a time, local engine`,
      },
      { name: 'pipeline webhook -> note.ready max', value: Math.max(...times), unit: 'ms' },
      {
        name: `catalog event behind ${burst} visits`,
        value: catalogMs,
        unit: 'ms',
        note: `${beforeLastNote ? 'before' : 'after'} the burst's last note.ready (${burstMs.toFixed(0)} ms)`,
      },
    ];
  } finally {
    await service.stop();
  }
}

if (isMain(import.meta.url)) {
  const { values } = parseArgs({ options: { visits: { type: 'string', default: '10' }, burst: { type: 'string', default: '8' } } });
  await runStandalone((ctx) => run({ ...ctx, visits: Number(values.visits), burst: Number(values.burst) }));
}
