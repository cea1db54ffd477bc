import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ClinicalEngine } from '../../src/engine/engine.js';
import { LocalEngine } from '../../src/engine/local/local-engine.js';
import { CodeTable } from '../../src/terminology/code-table.js';
import { starterRows } from '../../src/terminology/starter-catalog.js';
import { encounterData, envelope, postSigned } from '../helpers/inbound.js';
import { newCaller } from '../helpers/tokens.js';
import { isolatedDatabase, type IsolatedDatabase } from '../helpers/isolated-database.js';
import { startTestApp, TEST_OPERATOR_KEY, type TestApp } from '../helpers/test-app.js';

const operator = { 'x-api-key': TEST_OPERATOR_KEY };

/** The real engine, but extraction fails while `failing` is set (an outage of the engine). */
function flakyEngine(real: ClinicalEngine, control: { failing: boolean }): ClinicalEngine {
  return {
    name: real.name,
    chat: (m, o) => real.chat(m, o),
    codify: (i, o) => real.codify(i, o),
    extractNote: async (t, tpl, o) => {
      if (control.failing) throw new Error('engine outage');
      return real.extractNote(t, tpl, o);
    },
  };
}

describe('operator retry of a failed documentation pipeline', () => {
  let t: TestApp;
  let db: IsolatedDatabase;
  const control = { failing: true };

  beforeAll(async () => {
    db = await isolatedDatabase('retry');
    const starterTable = new CodeTable(starterRows());
    const engine = flakyEngine(new LocalEngine(() => starterTable), control);
    t = await startTestApp({ workers: true, env: { DATABASE_URL: db.url }, deps: { engine } });
  });
  afterAll(async () => {
    await t.close();
    await db.drop();
  });

  const state = async (id: string) => (await request(t.app).get(`/api/v1/webhooks/events/${id}`).set(operator)).body;

  it('fails the event when its extraction fails, then a retry runs the extraction again and completes it', async () => {
    const body = envelope('encounter.transcript', encounterData());
    expect((await postSigned(t.app, 'ehr', body)).status).toBe(202);
    await expect.poll(async () => (await state(body.id)).status, { timeout: 30_000 }).toBe('failed');
    const failed = await state(body.id);
    expect(failed.error.details).toMatch(/Extraction run .* failed/);

    control.failing = false;
    const retried = await request(t.app).post(`/api/v1/webhooks/events/${body.id}/retry`).set(operator);
    expect(retried.status).toBe(202);
    await expect.poll(async () => (await state(body.id)).status, { timeout: 30_000 }).toBe('completed');

    const done = await state(body.id);
    expect(done.pipeline.replaced_run_ids).toEqual([failed.pipeline.run_id]);
    expect(done.pipeline.run_id).not.toBe(failed.pipeline.run_id);
    expect(done.pipeline.note_ready).toBeDefined();
    const caller = await newCaller(body.data.group_id as string);
    const runs = await request(t.app).get(`/v1/agent/threads/${done.pipeline.thread_id}/runs`).set(caller.headers);
    expect(runs.status).toBe(200);
    expect(runs.body.map((r: { status: string }) => r.status).reverse()).toEqual(['failed', 'completed']);
    // SQL: the outbox has no read API (its events are only seen delivered, by an endpoint's receiver).
    const ready = await t.deps.pool.query(`SELECT count(*)::int AS n FROM outbox WHERE type = 'note.ready' AND data->>'event_id' = $1`, [
      body.id,
    ]);
    expect(ready.rows[0].n).toBe(1);

    expect((await request(t.app).post(`/api/v1/webhooks/events/${body.id}/retry`).set(operator)).status).toBe(409);
  }, 90_000);
});
