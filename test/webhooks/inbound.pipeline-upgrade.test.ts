import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ClinicalEngine } from '../../src/engine/engine.js';
import { LocalEngine } from '../../src/engine/local/local-engine.js';
import { CodeTable } from '../../src/terminology/code-table.js';
import { starterRows } from '../../src/terminology/starter-catalog.js';
import { migrate } from '../../src/db/migrate.js';
import { OPERATOR, readInboundEvent } from '../helpers/api-reads.js';
import { encounterData, envelope, postSigned } from '../helpers/inbound.js';
import { isolatedDatabase, type IsolatedDatabase } from '../helpers/isolated-database.js';
import { startReceiver, type Receiver } from '../helpers/receiver.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';
import { rewindToBeforePipelineTable } from './webhooks.builders.js';

/** The real engine, but every codification waits at a gate until the test opens it. */
function codifyGatedEngine(real: ClinicalEngine) {
  let open!: () => void;
  const gate = new Promise<void>((resolve) => (open = resolve));
  let codifying = 0;
  const engine: ClinicalEngine = {
    name: real.name,
    chat: (m, o) => real.chat(m, o),
    extractNote: (t, tpl, o) => real.extractNote(t, tpl, o),
    codify: async (i, o) => {
      codifying++;
      await gate;
      return real.codify(i, o);
    },
  };
  return { engine, open: () => open(), codifying: () => codifying };
}

/**
 * "A pipeline started by the previous release must finish after the upgrade." Migration 017
 * moved the pipeline's state from inbound_events.pipeline into documentation_pipelines. The
 * case here: the pipeline was at its codification when the release changed. The previous
 * release carried the codification's continuation (the pipeline-advance job) in the codify
 * job's data, which this release no longer reads; 017 puts it on the codification's row, and
 * the codification's end must send it, once.
 */
describe('a pipeline started by the previous release, its codification in the engine at the upgrade', () => {
  let t: TestApp;
  let db: IsolatedDatabase;
  let receiver: Receiver;
  let endpointId: string;
  const gated = codifyGatedEngine(new LocalEngine(() => new CodeTable(starterRows())));

  beforeAll(async () => {
    db = await isolatedDatabase('upgrade-coding');
    t = await startTestApp({ workers: true, env: { DATABASE_URL: db.url }, deps: { engine: gated.engine } });
    receiver = await startReceiver();
    const endpoint = await request(t.app)
      .post('/api/v1/webhook-endpoints')
      .set(OPERATOR)
      .send({ url: receiver.url, events: ['note.ready'] });
    expect(endpoint.status).toBe(201);
    endpointId = endpoint.body.id;
  });
  afterAll(async () => {
    gated.open();
    await t.close();
    await receiver.stop();
    await db.drop();
  });

  const noteReadyDeliveries = async () =>
    (await request(t.app).get(`/api/v1/webhook-endpoints/${endpointId}/deliveries`).set(OPERATOR)).body.filter(
      (d: { event_type: string }) => d.event_type === 'note.ready',
    );

  it('moves its state into documentation_pipelines (migration 017) and finishes: one note.ready, the event completed', async () => {
    const body = envelope('encounter.transcript', encounterData());
    expect((await postSigned(t.app, 'ehr', body)).status).toBe(202);
    await expect.poll(() => gated.codifying(), { timeout: 30_000 }).toBe(1);
    const before = await readInboundEvent(t.app, body.id);
    expect(before).toMatchObject({
      status: 'processing',
      pipeline: {
        transcription_id: expect.any(String),
        thread_id: expect.any(String),
        run_id: expect.any(String),
        note_id: expect.any(String),
        codify_run_id: expect.any(String),
      },
    });
    expect(before.pipeline.note_ready).toBeUndefined();

    // The database as the previous release left it at this point: the pipeline's keys in
    // inbound_events.pipeline; the codification's continuation in its job's data, not on its row;
    // the run's (sent already) inside its config; no pipeline table; 017 and the later migrations
    // of its table (032, 033) not applied.
    await rewindToBeforePipelineTable(t.deps.pool);
    // SQL: the state the previous release stored, in a column the API never showed (the upgrade is the point).
    const old = await t.deps.pool.query(`SELECT pipeline FROM inbound_events WHERE event_id = $1`, [body.id]);
    expect(Object.keys(old.rows[0].pipeline).sort()).toEqual(['codify_run_id', 'note_id', 'run_id', 'thread_id', 'transcription_id']);
    // SQL: the job row is pg-boss's; the previous release kept the continuation in its data.
    const job = await t.deps.pool.query(`SELECT state, data FROM pgboss.job WHERE name = 'codify' AND data->>'codify_run_id' = $1`, [
      before.pipeline.codify_run_id,
    ]);
    expect(job.rows).toEqual([
      { state: 'active', data: expect.objectContaining({ continuation: expect.objectContaining({ queue: 'pipeline-advance' }) }) },
    ]);

    // 017, and the later migrations of the table it makes (an index, the patient authority's columns).
    expect(await migrate(t.deps.pool)).toEqual([
      '017_documentation_pipelines.sql',
      '032_pipeline_note_index.sql',
      '033_pipeline_patient_authority.sql',
    ]);
    expect(await readInboundEvent(t.app, body.id)).toEqual(before);

    gated.open();
    await expect.poll(async () => (await readInboundEvent(t.app, body.id)).status, { timeout: 30_000 }).toBe('completed');
    const done = await readInboundEvent(t.app, body.id);
    expect(done.pipeline).toEqual({ ...before.pipeline, note_ready: expect.any(String) });

    await expect
      .poll(async () => (await noteReadyDeliveries()).map((d: { status: string }) => d.status), { timeout: 15_000 })
      .toEqual(['delivered']);
    const received = receiver.received.filter((r) => r.json.type === 'note.ready');
    expect(received.map((r) => r.json.data)).toEqual([
      expect.objectContaining({ event_id: body.id, note_id: before.pipeline.note_id, codify_run_id: before.pipeline.codify_run_id }),
    ]);
    // Nothing is left to send a second one: every pipeline-advance and codify job has ended.
    // SQL: the job rows are pg-boss's; the point is that none is left to send a second note.ready.
    const open = await t.deps.pool.query(
      `SELECT count(*)::int AS n FROM pgboss.job WHERE name IN ('pipeline-advance', 'codify') AND state NOT IN ('completed', 'failed', 'cancelled')`,
    );
    expect(open.rows[0].n).toBe(0);
    expect(await noteReadyDeliveries()).toHaveLength(1);
  }, 90_000);
});
