import { randomUUID } from 'node:crypto';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ClinicalEngine } from '../../src/engine/engine.js';
import { LocalEngine } from '../../src/engine/local/local-engine.js';
import { CodeTable } from '../../src/terminology/code-table.js';
import { starterRows } from '../../src/terminology/starter-catalog.js';
import { migrate } from '../../src/db/migrate.js';
import { readConsoleList } from '../helpers/api-reads.js';
import { encounterData, envelope, postSigned } from '../helpers/inbound.js';
import { isolatedDatabase, type IsolatedDatabase } from '../helpers/isolated-database.js';
import { startTestApp, TEST_OPERATOR_KEY, type TestApp } from '../helpers/test-app.js';
import { rewindToBeforePipelineTable } from './webhooks.builders.js';

const operator = { 'x-api-key': TEST_OPERATOR_KEY };

/** The real engine, but every extraction waits at a gate until the test opens it (a slow LLM). */
function gatedEngine(real: ClinicalEngine) {
  let open!: () => void;
  const gate = new Promise<void>((resolve) => (open = resolve));
  let extracting = 0;
  const engine: ClinicalEngine = {
    name: real.name,
    chat: (m, o) => real.chat(m, o),
    codify: (i, o) => real.codify(i, o),
    extractNote: async (t, tpl, o) => {
      extracting++;
      await gate;
      return real.extractNote(t, tpl, o);
    },
  };
  return { engine, open: () => open(), extracting: () => extracting };
}

/**
 * Issue 19: the documentation pipeline advances by continuation, so no inbound-event job waits
 * for an extraction. Before, each pipeline held one of the inbound worker's two slots while its
 * run executed, and a catalog event sent behind two slow pipelines waited for them.
 */
describe('a catalog event while documentation pipelines wait on a slow extraction', () => {
  let t: TestApp;
  let db: IsolatedDatabase;
  const gated = gatedEngine(new LocalEngine(() => new CodeTable(starterRows())));

  beforeAll(async () => {
    db = await isolatedDatabase('continuation');
    t = await startTestApp({ workers: true, env: { DATABASE_URL: db.url }, deps: { engine: gated.engine } });
  });
  afterAll(async () => {
    gated.open();
    await t.close();
    await db.drop();
  });

  const state = async (id: string) => (await request(t.app).get(`/api/v1/webhooks/events/${id}`).set(operator)).body;

  it('completes the catalog event before any extraction ends, and the pipelines complete once it does', async () => {
    // Three pipelines, each sent once the one before reached its extraction: separate fetches of
    // the inbound worker, more than its two slots.
    const encounters = [];
    for (let i = 1; i <= 3; i++) {
      const body = envelope('encounter.transcript', encounterData());
      expect((await postSigned(t.app, 'ehr', body)).status).toBe(202);
      await expect.poll(() => gated.extracting(), { timeout: 15_000 }).toBe(i);
      encounters.push(body);
    }
    for (const e of encounters) expect((await state(e.id)).status).toBe('processing');

    const id = `ctr-${randomUUID().slice(0, 8)}`;
    const catalog = envelope('center.upserted', {
      id,
      name: `Clínica ${id}`,
      address: { line: 'Avenida Diagonal 1', city: 'Barcelona', postalCode: '08019', country: 'ES' },
      phone: '+34932550100',
      timezone: 'Europe/Madrid',
    });
    expect((await postSigned(t.app, 'ehr', catalog)).status).toBe(202);
    await expect.poll(async () => (await state(catalog.id)).status, { timeout: 10_000 }).toBe('completed');

    // No extraction has ended: every run is still in the engine, every pipeline still processing.
    const extractions = async () =>
      ((await readConsoleList(t.app, 'runs')) as { kind: string; status: string }[])
        .filter((r) => r.kind === 'extraction')
        .map((r) => r.status);
    expect(await extractions()).toEqual(['running', 'running', 'running']);
    for (const e of encounters) expect((await state(e.id)).status).toBe('processing');
    // Nothing is waiting in a job: the inbound jobs complete while the extractions are still held
    // (within the job loop's pace, at most 300 ms after their batch: jobs/loop-pace.ts).
    // SQL: the job rows are pg-boss's; the point is that no inbound job waits on an extraction.
    const open = async () =>
      (await t.deps.pool.query(`SELECT count(*)::int AS n FROM pgboss.job WHERE name = 'inbound-event' AND state <> 'completed'`)).rows[0]
        .n;
    await expect.poll(open, { timeout: 2_000 }).toBe(0);
    expect(await extractions()).toEqual(['running', 'running', 'running']);

    gated.open();
    for (const e of encounters) {
      await expect.poll(async () => (await state(e.id)).status, { timeout: 30_000 }).toBe('completed');
      expect((await state(e.id)).pipeline.note_ready).toBeDefined();
    }
    // SQL: the outbox has no read API (its events are only seen delivered, by an endpoint's receiver).
    const ready = await t.deps.pool.query(`SELECT count(*)::int AS n FROM outbox WHERE type = 'note.ready'`);
    expect(ready.rows[0].n).toBe(3);
  }, 90_000);
});

describe('a pipeline whose extraction run is cancelled while it runs', () => {
  let t: TestApp;
  let db: IsolatedDatabase;
  const gated = gatedEngine(new LocalEngine(() => new CodeTable(starterRows())));

  beforeAll(async () => {
    db = await isolatedDatabase('continuation-cancel');
    t = await startTestApp({ workers: true, env: { DATABASE_URL: db.url }, deps: { engine: gated.engine } });
  });
  afterAll(async () => {
    gated.open();
    await t.close();
    await db.drop();
  });

  it('fails the event: every ending of the run, a cancel too, continues the pipeline', async () => {
    const body = envelope('encounter.transcript', encounterData());
    expect((await postSigned(t.app, 'ehr', body)).status).toBe(202);
    await expect.poll(() => gated.extracting(), { timeout: 15_000 }).toBe(1);
    const event = (await request(t.app).get(`/api/v1/webhooks/events/${body.id}`).set(operator)).body;
    expect((await request(t.app).post(`/api/v1/console/runs/${event.pipeline.run_id}/cancel`).set(operator)).status).toBe(200);
    await expect
      .poll(async () => (await request(t.app).get(`/api/v1/webhooks/events/${body.id}`).set(operator)).body.status, { timeout: 15_000 })
      .toBe('failed');
    const failed = (await request(t.app).get(`/api/v1/webhooks/events/${body.id}`).set(operator)).body;
    expect(failed.error).toEqual({
      error: 'Processing Failed',
      details: expect.stringMatching(/^Extraction run .* failed: Run .* was cancelled by an operator$/),
    });
    expect(await readConsoleList(t.app, 'codifications')).toEqual([]);
  }, 60_000);
});

describe('a pipeline started by the previous release, its run in the engine at the upgrade', () => {
  let t: TestApp;
  let db: IsolatedDatabase;
  const gated = gatedEngine(new LocalEngine(() => new CodeTable(starterRows())));

  beforeAll(async () => {
    db = await isolatedDatabase('continuation-upgrade');
    t = await startTestApp({ workers: true, env: { DATABASE_URL: db.url }, deps: { engine: gated.engine } });
  });
  afterAll(async () => {
    gated.open();
    await t.close();
    await db.drop();
  });

  it('moves its state into documentation_pipelines (migration 017) and finishes: one note.ready, the event completed', async () => {
    const body = envelope('encounter.transcript', encounterData());
    expect((await postSigned(t.app, 'ehr', body)).status).toBe(202);
    await expect.poll(() => gated.extracting(), { timeout: 15_000 }).toBe(1);
    const before = (await request(t.app).get(`/api/v1/webhooks/events/${body.id}`).set(operator)).body;
    expect(before).toMatchObject({ status: 'processing', pipeline: { transcription_id: expect.any(String), run_id: expect.any(String) } });

    // The database as the previous release left it: the pipeline's steps in inbound_events.pipeline,
    // the run's continuation inside its config, no pipeline table, migration 017 not applied.
    await rewindToBeforePipelineTable(t.deps.pool);
    // SQL: the state the previous release stored, in a column the API never showed (the upgrade is the point).
    const old = await t.deps.pool.query(`SELECT pipeline FROM inbound_events WHERE event_id = $1`, [body.id]);
    expect(old.rows[0].pipeline).toEqual({
      transcription_id: before.pipeline.transcription_id,
      thread_id: before.pipeline.thread_id,
      run_id: before.pipeline.run_id,
    });

    // 017, and the later migrations of the table it makes (an index, the patient authority's columns).
    expect(await migrate(t.deps.pool)).toEqual([
      '017_documentation_pipelines.sql',
      '032_pipeline_note_index.sql',
      '033_pipeline_patient_authority.sql',
    ]);
    const after = (await request(t.app).get(`/api/v1/webhooks/events/${body.id}`).set(operator)).body;
    expect(after).toEqual(before);

    gated.open();
    await expect
      .poll(async () => (await request(t.app).get(`/api/v1/webhooks/events/${body.id}`).set(operator)).body.status, { timeout: 30_000 })
      .toBe('completed');
    const done = (await request(t.app).get(`/api/v1/webhooks/events/${body.id}`).set(operator)).body;
    expect(done.pipeline).toMatchObject({ run_id: before.pipeline.run_id, note_id: expect.any(String), note_ready: expect.any(String) });
    // SQL: the outbox has no read API (its events are only seen delivered, by an endpoint's receiver).
    const ready = await t.deps.pool.query(`SELECT count(*)::int AS n FROM outbox WHERE type = 'note.ready'`);
    expect(ready.rows[0].n).toBe(1);
  }, 60_000);
});
