import { createPool, type Pool } from '../../src/db/pool.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { integrationSignature } from '../../src/modules/outbound-webhooks/transport/signing.js';
import { encounterData, envelope } from '../helpers/inbound.js';
import { startReceiver, type Receiver } from '../helpers/receiver.js';
import { TEST_OPERATOR_KEY, TEST_EHR_SECRET } from '../helpers/test-app.js';
import { newCaller, type Caller } from '../helpers/tokens.js';
import { VISIT } from '../runs/runs.builders.js';
import { Cluster, ownDatabase, waitFor, type Member } from './cluster.js';

const THREADS = 10;
const ROUNDS = 3; // runs per thread: 30 per batch
const EVENTS = 10;

interface Batch {
  threads: string[];
  runs: string[];
  events: string[];
}

async function call(base: string, method: string, path: string, body?: unknown, headers: Record<string, string> = {}) {
  const res = await fetch(`${base}${path}`, {
    method,
    headers: { 'content-type': 'application/json', ...headers },
    body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : undefined };
}

describe('scale-out: two API and two worker processes on one database', () => {
  let db: Awaited<ReturnType<typeof ownDatabase>>;
  let cluster: Cluster;
  let apis: Member[];
  let workers: Member[];
  let receiver: Receiver;
  let pool: Pool;
  let caller: Caller;

  beforeAll(async () => {
    db = await ownDatabase();
    pool = createPool(db.url, 3); // createPool listens for errors: a dropped idle client must not crash the test
    cluster = new Cluster(db.url);
    receiver = await startReceiver();
    caller = await newCaller();
    try {
      // The first process installs pg-boss's schema; the others start together.
      apis = [await cluster.start('api-1', 'api')];
      apis.push(...(await Promise.all([cluster.start('api-2', 'api')])));
      workers = await Promise.all([cluster.start('worker-1', 'worker'), cluster.start('worker-2', 'worker')]);
    } catch (err) {
      throw new Error(`${(err as Error).message}\n${cluster.outputs()}`);
    }
    // Operator-wide, every event type: each outbound event gets one delivery here.
    const ep = await call(
      apis[0].url!,
      'POST',
      '/api/v1/webhook-endpoints',
      { url: receiver.url, events: [] },
      { 'x-api-key': TEST_OPERATOR_KEY },
    );
    expect(ep.status).toBe(201);
  }, 150_000);

  afterAll(async () => {
    cluster?.stop();
    await receiver?.stop();
    await pool?.end();
    await db?.stop();
  });

  const apiFor = (i: number) => apis[i % 2].url!;

  async function postEvent(base: string): Promise<string> {
    const body = envelope('encounter.transcript', encounterData());
    const raw = JSON.stringify(body);
    const res = await call(base, 'POST', '/api/v1/webhooks/ehr', raw, {
      'x-integration-signature': integrationSignature(TEST_EHR_SECRET, raw),
    });
    expect(res.status).toBe(202);
    return body.id;
  }

  async function runRound(batch: Batch, round: number, label: string): Promise<void> {
    const ids = await Promise.all(
      batch.threads.map(async (thread, i) => {
        const content = `${VISIT}\n[doctor] ${label}, question ${round + 1}: what is the plan?`;
        const body = { input: { messages: [{ role: 'user', content }] }, config: { configurable: { thread_id: thread } } };
        const res = await call(apiFor(round * THREADS + i), 'POST', `/v1/agent/threads/${thread}/runs`, body, caller.headers);
        expect(res.status).toBe(201);
        return res.body.run_id as string;
      }),
    );
    batch.runs.push(...ids);
  }

  /** Threads, runs and events, alternating between the two API processes; `midway` runs after the first round. */
  async function submitBatch(label: string, midway?: () => Promise<void>): Promise<Batch> {
    const threads = await Promise.all(
      Array.from({ length: THREADS }, async (_, i) => {
        const res = await call(apiFor(i), 'POST', '/v1/agent/threads', {}, caller.headers);
        expect(res.status).toBe(201);
        return res.body.thread_id as string;
      }),
    );
    const batch: Batch = { threads, runs: [], events: [] };
    const [events] = await Promise.all([
      Promise.all(Array.from({ length: EVENTS }, (_, i) => postEvent(apiFor(i)))),
      runRound(batch, 0, label),
    ]);
    batch.events = events;
    await midway?.();
    for (let round = 1; round < ROUNDS; round++) await runRound(batch, round, label);
    return batch;
  }

  async function state() {
    // SQL: scale guard: nothing left open across the whole database after the run.
    const { rows } = await pool.query(
      `SELECT (SELECT count(*) FROM runs WHERE status IN ('pending', 'running'))::int AS open_runs,
              (SELECT count(*) FROM runs WHERE status = 'failed')::int AS failed_runs,
              (SELECT count(*) FROM inbound_events WHERE status IN ('received', 'processing'))::int AS open_events,
              (SELECT count(*) FROM inbound_events WHERE status = 'failed')::int AS failed_events,
              (SELECT count(*) FROM outbox WHERE dispatched_at IS NULL)::int AS undispatched,
              (SELECT count(*) FROM webhook_deliveries WHERE status <> 'delivered')::int AS undelivered`,
    );
    return rows[0] as Record<string, number>;
  }

  /** For a failure message: deliveries not delivered, with their lease and their jobs' pg-boss state. */
  async function stragglers(): Promise<string> {
    // SQL: diagnostics: the deliveries with their pg-boss jobs.
    const { rows } = await pool.query(
      `SELECT d.id, d.status, d.attempt_count, d.lease_until IS NOT NULL AS leased, d.next_attempt_at,
              (SELECT json_agg(json_build_object('state', j.state, 'retries', j.retry_count, 'started', j.started_on))
               FROM pgboss.job j WHERE j.name = 'webhook-delivery' AND j.data->>'delivery_id' = d.id::text) AS jobs
       FROM webhook_deliveries d WHERE d.status <> 'delivered'`,
    );
    return JSON.stringify(rows);
  }

  async function drained(timeoutMs: number): Promise<number> {
    const started = Date.now();
    await waitFor(
      async () => {
        const s = await state();
        if (s.failed_runs || s.failed_events) throw new Error(`failures: ${JSON.stringify(s)}`);
        return s.open_runs + s.open_events + s.undispatched + s.undelivered === 0;
      },
      timeoutMs,
      'every run, event and delivery to finish',
      250,
    );
    return Date.now() - started;
  }

  /** Each run completed once (one assistant message, one run.completed), each pipeline once (one note, one note.ready). */
  async function verifyBatch(batch: Batch): Promise<{ rerunRuns: number; retriedEvents: number }> {
    // SQL: scale guard: every run with its reply and its run.completed, none duplicated.
    const runs = await pool.query(
      `SELECT r.id, r.status, r.attempts,
              (SELECT count(*) FROM thread_messages m WHERE m.run_id = r.id AND m.role = 'assistant')::int AS replies,
              (SELECT count(*) FROM outbox o WHERE o.type = 'run.completed' AND o.data->>'run_id' = r.id::text)::int AS completed_events
       FROM runs r WHERE r.id = ANY($1::uuid[])`,
      [batch.runs],
    );
    expect(runs.rows).toHaveLength(THREADS * ROUNDS);
    for (const r of runs.rows) expect(r, `run ${r.id}`).toMatchObject({ status: 'completed', replies: 1, completed_events: 1 });

    // Per thread, the runs' messages in submission order: user, assistant, three times.
    // SQL: scale guard: every thread's messages in order, none duplicated.
    const threads = await pool.query(
      `SELECT thread_id, array_agg(role ORDER BY id) AS roles FROM thread_messages WHERE thread_id = ANY($1::uuid[]) GROUP BY thread_id`,
      [batch.threads],
    );
    expect(threads.rows).toHaveLength(THREADS);
    for (const t of threads.rows) expect(t.roles).toEqual(Array.from({ length: ROUNDS }, () => ['user', 'assistant']).flat());

    // SQL: scale guard: every event with its note.ready, note, transcription and run counted once.
    const events = await pool.query(
      `SELECT e.event_id, e.status, e.attempts,
              (SELECT count(*) FROM outbox o WHERE o.type = 'note.ready' AND o.data->>'event_id' = e.event_id)::int AS ready,
              (SELECT count(*) FROM clinical_notes n WHERE n.group_id = e.group_id)::int AS notes,
              (SELECT count(*) FROM transcriptions t WHERE t.group_id = e.group_id)::int AS transcriptions,
              (SELECT count(*) FROM runs r WHERE r.group_id = e.group_id AND r.status = 'completed')::int AS runs
       FROM inbound_events e WHERE e.event_id = ANY($1)`,
      [batch.events],
    );
    expect(events.rows).toHaveLength(EVENTS);
    for (const e of events.rows)
      expect(e, `event ${e.event_id}`).toMatchObject({ status: 'completed', ready: 1, notes: 1, transcriptions: 1, runs: 1 });
    return { rerunRuns: runs.rows.filter((r) => r.attempts > 1).length, retriedEvents: events.rows.filter((e) => e.attempts > 1).length };
  }

  /** Every outbound event has one delivery, delivered; the ledger records one 2xx attempt per delivery. */
  async function verifyDeliveries() {
    // SQL: scale guard: every delivery with its attempts, none sent twice.
    const { rows } = await pool.query(
      `SELECT d.id, d.status,
              (SELECT count(*) FROM webhook_delivery_attempts a WHERE a.delivery_id = d.id AND a.status_code BETWEEN 200 AND 299)::int AS ok_attempts
       FROM webhook_deliveries d`,
    );
    // SQL: scale guard: one delivery per outbox event (the outbox has no read API).
    const outbox = (await pool.query(`SELECT count(*)::int AS n FROM outbox`)).rows[0].n;
    expect(rows).toHaveLength(outbox);
    for (const d of rows) expect(d, `delivery ${d.id}`).toMatchObject({ status: 'delivered', ok_attempts: 1 });
    const received = receiver.successesById();
    expect(new Set(received.keys())).toEqual(new Set(rows.map((d) => d.id)));
    return { deliveries: rows.length, received };
  }

  it('spreads load over both API and both worker processes: every run, pipeline and delivery exactly once', async () => {
    const t0 = Date.now();
    const batch = await submitBatch('batch 1');
    const submitMs = Date.now() - t0;
    try {
      const drainMs = await drained(90_000);
      const { rerunRuns, retriedEvents } = await verifyBatch(batch);
      const { deliveries, received } = await verifyDeliveries();
      expect([...received.values()].every((n) => n === 1)).toBe(true);
      expect(rerunRuns + retriedEvents).toBe(0);
      console.log(
        `[scale-out] batch 1: ${batch.runs.length} runs on ${THREADS} threads, ${batch.events.length} EHR events, ${deliveries} deliveries; submitted in ${submitMs} ms, drained ${drainMs} ms later`,
      );
    } catch (err) {
      throw new Error(`${(err as Error).message}\nstate: ${JSON.stringify(await state())}\n${cluster.outputs()}`);
    }
  }, 120_000);

  it('loses nothing when one worker is SIGKILLed in the middle of a batch: the other one finishes its work', async () => {
    let killedAt = 0;
    let inFlight = { runs: 0, events: 0 };
    const batch = await submitBatch('batch 2', async () => {
      // Kill while the workers are busy: some runs or pipelines started and not finished.
      await waitFor(
        async () => {
          // SQL: scale guard: nothing running or open after the stop.
          const { rows } = await pool.query(
            `SELECT (SELECT count(*) FROM runs WHERE status = 'running')::int AS runs,
                    (SELECT count(*) FROM inbound_events WHERE status = 'processing')::int AS events`,
          );
          inFlight = rows[0];
          return inFlight.runs + inFlight.events > 0;
        },
        15_000,
        'work in progress',
        20,
      ).catch(() => {});
      killedAt = Date.now();
      await cluster.kill(workers[0]);
    });
    try {
      const drainMs = await drained(120_000);
      const sinceKillMs = Date.now() - killedAt;
      const { rerunRuns, retriedEvents } = await verifyBatch(batch);
      const { deliveries, received } = await verifyDeliveries();
      const twice = [...received].filter(([, n]) => n > 1).map(([id]) => id);
      const duplicates = twice.length;
      // At-least-once: a request the killed worker had sent but not recorded is sent again with the
      // same webhook-id (receivers drop it by that id). Only such requests, sent before the kill, repeat.
      for (const id of twice) {
        const first = receiver.received.find((r) => r.webhookId === id && r.answered === 200)!;
        expect(first.at, `first receipt of ${id}`).toBeLessThanOrEqual(killedAt + 1_000);
      }
      expect(workers[1].proc.child.exitCode).toBeNull();
      console.log(
        `[scale-out] batch 2: worker-1 SIGKILLed with ${inFlight.runs} runs and ${inFlight.events} pipelines in progress; ` +
          `all ${batch.runs.length} runs and ${batch.events.length} events completed ${sinceKillMs} ms after the kill (waited ${drainMs} ms after submitting); ` +
          `${rerunRuns} runs re-executed, ${retriedEvents} pipelines retried; ${deliveries} deliveries in all, ${duplicates} webhook-ids received twice`,
      );
    } catch (err) {
      throw new Error(
        `${(err as Error).message}\nstate: ${JSON.stringify(await state())}\nundelivered: ${await stragglers()}\n${cluster.outputs()}`,
      );
    }
  }, 180_000);
});
