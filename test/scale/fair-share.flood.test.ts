import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IsolatedEngine } from '../../src/engine/isolated/isolated-engine.js';
import { CodeTable } from '../../src/terminology/code-table.js';
import { starterRows } from '../../src/terminology/starter-catalog.js';
import { startIsolatedTestApp, type TestApp } from '../helpers/test-app.js';
import { newCaller, type Caller } from '../helpers/tokens.js';
import { newThread, runBody, VISIT } from '../runs/runs.builders.js';

/** Every engine call holds its worker this long (test/helpers/paced-engine-thread.ts). */
const ENGINE_CALL_MS = 400;
const PACED = new URL('../helpers/paced-engine-thread.ts', import.meta.url);
const NOTE = 'Assessment: acute pharyngitis. Type 2 diabetes mellitus without complications. Plan: rest and fluids.';

describe('fair share: one group floods runs and codify, another group is served in turn', { timeout: 180_000 }, () => {
  let t: TestApp;
  let engine: IsolatedEngine;
  beforeAll(async () => {
    process.env.PACED_ENGINE_MS = String(ENGINE_CALL_MS);
    const table = new CodeTable(starterRows());
    // The real pool of engine worker threads, one thread (as on a 2-core machine), paced calls.
    engine = new IsolatedEngine({ codeTable: () => table, entry: PACED, size: 1, budgetMs: 60_000 });
    t = await startIsolatedTestApp({ workers: true, deps: { engine } });
  });
  afterAll(async () => {
    await t?.close();
    await engine?.close();
  });

  const extraction = async (caller: Caller) => {
    const threadId = await newThread(t.app, caller);
    const res = await request(t.app)
      .post(`/v1/agent/threads/${threadId}/runs`)
      .set(caller.headers)
      .set('x-is-chat', 'false')
      .send(runBody(threadId, VISIT));
    expect(res.status).toBe(201);
    return { threadId, runId: res.body.run_id as string };
  };
  const join = async (caller: Caller, run: { threadId: string; runId: string }) => {
    const res = await request(t.app).get(`/v1/agent/threads/${run.threadId}/runs/${run.runId}/join?timeout=120`).set(caller.headers);
    expect(res.body.status).toBe('completed');
  };
  /** A run from its POST to its join's answer, in ms. */
  const timedRun = async (caller: Caller) => {
    const threadId = await newThread(t.app, caller);
    const started = performance.now();
    const res = await request(t.app)
      .post(`/v1/agent/threads/${threadId}/runs`)
      .set(caller.headers)
      .set('x-is-chat', 'false')
      .send(runBody(threadId, VISIT));
    expect(res.status).toBe(201);
    await join(caller, { threadId, runId: res.body.run_id });
    return performance.now() - started;
  };
  const postCodify = (caller: Caller) => request(t.app).post('/v1/codify').set(caller.headers).send({ medical_note: NOTE });
  const timedCodify = async (caller: Caller) => {
    const started = performance.now();
    const res = await postCodify(caller);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return performance.now() - started;
  };

  it("keeps the other group's single run and codification within twice their solo latency plus one engine call", async () => {
    const b = await newCaller();
    // Warm up (worker spawn, code table), then solo figures.
    await timedRun(b);
    await timedCodify(b);
    const soloRun = await timedRun(b);
    const soloCodify = await timedCodify(b);

    const a = await newCaller();
    const floodRuns = [];
    for (let i = 0; i < 20; i++) floodRuns.push(await extraction(a));
    const floodCodify = Array.from({ length: 10 }, () => postCodify(a).then((r) => r.status));
    // The flood is in the engine before B asks.
    await new Promise((r) => setTimeout(r, ENGINE_CALL_MS));

    const contendedRun = await timedRun(b);
    const contendedCodify = await timedCodify(b);
    // The flood was still being worked through when B's work ended: the contention was real.
    const ended = await Promise.all(
      floodRuns.map(async (r) => (await request(t.app).get(`/v1/agent/threads/${r.threadId}/runs/${r.runId}`).set(a.headers)).body.status),
    );
    const floodLeft = ended.filter((s) => s !== 'completed').length;

    const figures = {
      engine_call_ms: ENGINE_CALL_MS,
      solo_run_ms: Math.round(soloRun),
      contended_run_ms: Math.round(contendedRun),
      solo_codify_ms: Math.round(soloCodify),
      contended_codify_ms: Math.round(contendedCodify),
      flood_runs_not_done_when_b_finished: floodLeft,
    };
    console.log(`fair share figures: ${JSON.stringify(figures)}`);
    expect(floodLeft).toBeGreaterThan(5);
    // "plus one engine call": the longer of a solo run and a solo codification bounds one call.
    const oneCall = Math.max(soloRun, soloCodify);
    expect(contendedRun).toBeLessThanOrEqual(2 * soloRun + oneCall);
    expect(contendedCodify).toBeLessThanOrEqual(2 * soloCodify + oneCall);

    // Nothing of the flood is lost: every run completes, every codification answers.
    for (const r of floodRuns) await join(a, r);
    expect(await Promise.all(floodCodify)).toEqual(Array(10).fill(200));
  });
});
