import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { noteReadySchema } from '../../src/outbound-events/note-ready.js';
import { readNote } from '../helpers/api-reads.js';
import { encounterData, envelope, postSigned } from '../helpers/inbound.js';
import { isolatedDatabase, startReceiver, verifySignatures, type Receiver } from '../helpers/receiver.js';
import { startTestApp, TEST_OPERATOR_KEY, type TestApp } from '../helpers/test-app.js';
import { newCaller } from '../helpers/tokens.js';

const operator = { 'x-api-key': TEST_OPERATOR_KEY };

describe('documentation pipeline from an EHR encounter.transcript', () => {
  let t: TestApp;
  let receiver: Receiver;
  let thinReceiver: Receiver;
  let db: Awaited<ReturnType<typeof isolatedDatabase>>;
  let secret: string;
  let thinSecret: string;

  beforeAll(async () => {
    db = await isolatedDatabase();
    t = await startTestApp({ workers: true, env: { DATABASE_URL: db.url } });
    receiver = await startReceiver();
    thinReceiver = await startReceiver();
    const full = await request(t.app)
      .post('/api/v1/webhook-endpoints')
      .set(operator)
      .send({ url: receiver.url, events: ['note.ready'] });
    const thin = await request(t.app)
      .post('/api/v1/webhook-endpoints')
      .set(operator)
      .send({ url: thinReceiver.url, events: ['note.ready'], thin: true });
    expect(full.status).toBe(201);
    secret = full.body.secret;
    thinSecret = thin.body.secret;
  });
  afterAll(async () => {
    await t.close();
    await receiver.stop();
    await thinReceiver.stop();
    await db.drop();
  });

  async function noteReady(r: Receiver, eventId: string) {
    await expect
      .poll(() => r.received.filter((x) => x.json.type === 'note.ready' && x.json.data.event_id === eventId).length, { timeout: 30_000 })
      .toBeGreaterThan(0);
    return r.received.find((x) => x.json.type === 'note.ready' && x.json.data.event_id === eventId)!;
  }

  it('produces a signed note.ready with the note and its codes, and links every step by one correlation id', async () => {
    const data = encounterData({ template: 'SOAP' });
    const body = envelope('encounter.transcript', data);
    expect((await postSigned(t.app, 'ehr', body)).status).toBe(202);

    const delivered = await noteReady(receiver, body.id);
    verifySignatures(secret, delivered);
    const ready = delivered.json.data as Record<string, any>;
    // What is delivered is the note.ready contract, key for key (the one schema the pipeline records it by).
    expect(Object.keys(ready).sort()).toEqual(Object.keys(noteReadySchema.shape).sort());
    expect(noteReadySchema.strict().safeParse(ready).success).toBe(true);
    expect(ready).toMatchObject({ event_id: body.id, group_id: data.group_id, template: 'SOAP' });
    expect(Object.keys(ready.ai_generated_content).sort()).toEqual(['assessment', 'objective', 'plan', 'subjective']);
    expect(ready.ai_generated_content.subjective).toMatch(/cough/i);
    const codes = (ready.final_code_assessments as { code: string }[]).map((a) => a.code);
    expect(codes.some((c) => c.startsWith('J18') || c.startsWith('J15') || c.startsWith('J13'))).toBe(true);

    const state = await request(t.app).get(`/api/v1/webhooks/events/${body.id}`).set(operator);
    expect(state.body).toMatchObject({ status: 'completed', correlation_id: ready.correlation_id });
    expect(state.body.pipeline).toMatchObject({
      transcription_id: ready.transcription_id,
      thread_id: ready.thread_id,
      run_id: ready.run_id,
      note_id: ready.note_id,
      codify_run_id: ready.codify_run_id,
    });

    const pool = t.deps.pool;
    // SQL: only the events API and the console's run show a correlation id; the transcription, thread, note and codification do not.
    const linked = await pool.query(
      `SELECT (SELECT correlation_id FROM transcriptions WHERE id = $1) AS t, (SELECT correlation_id FROM threads WHERE id = $2) AS th,
              (SELECT correlation_id FROM runs WHERE id = $3) AS r, (SELECT correlation_id FROM clinical_notes WHERE id = $4) AS n,
              (SELECT correlation_id FROM codify_runs WHERE id = $5) AS c`,
      [ready.transcription_id, ready.thread_id, ready.run_id, ready.note_id, ready.codify_run_id],
    );
    expect(new Set(Object.values(linked.rows[0]))).toEqual(new Set([ready.correlation_id]));
    const note = await readNote(t.app, await newCaller(data.group_id), ready.note_id);
    expect(note).toMatchObject({
      group_id: data.group_id,
      user_id: data.doctor_id,
      transcription_id: ready.transcription_id,
      report_thread_id: ready.thread_id,
      report_run_id: [ready.run_id],
    });

    const thin = await noteReady(thinReceiver, body.id);
    verifySignatures(thinSecret, thin);
    expect(thin.json.data).not.toHaveProperty('ai_generated_content');
    expect(ready.patient_id).toBe(data.patient_id); // the full payload names the patient; the thin one never does
    expect(thin.json.data).not.toHaveProperty('patient_id');
    expect(thin.json.data).not.toHaveProperty('doctor_id');
    expect(thin.json.data).toMatchObject({ note_id: ready.note_id, codify_run_id: ready.codify_run_id });
  }, 60_000);

  it('processes a duplicate once: one transcription, one note, one note.ready', async () => {
    const data = encounterData({ template: 'DAP' });
    const body = envelope('encounter.transcript', data);
    const answers = await Promise.all([postSigned(t.app, 'ehr', body), postSigned(t.app, 'ehr', body)]);
    expect(answers.map((a) => a.status).sort()).toEqual([200, 202]);
    await noteReady(receiver, body.id);
    expect((await postSigned(t.app, 'ehr', body)).body).toMatchObject({ duplicate: true });
    await new Promise((r) => setTimeout(r, 1_000));
    // SQL: nothing duplicated: no API lists a group's transcriptions or notes, and the outbox has no read API.
    const counts = await t.deps.pool.query(
      `SELECT (SELECT count(*) FROM transcriptions WHERE group_id = $1)::int AS transcriptions,
              (SELECT count(*) FROM clinical_notes WHERE group_id = $1)::int AS notes,
              (SELECT count(*) FROM outbox WHERE type = 'note.ready' AND group_id = $1)::int AS ready`,
      [data.group_id],
    );
    expect(counts.rows[0]).toEqual({ transcriptions: 1, notes: 1, ready: 1 });
    expect(receiver.received.filter((x) => x.json.data.event_id === body.id)).toHaveLength(1);
  }, 60_000);

  it('makes the note in the template the event asks for', async () => {
    const body = envelope('encounter.transcript', encounterData({ template: 'GIRP' }));
    await postSigned(t.app, 'ehr', body);
    const ready = (await noteReady(receiver, body.id)).json.data as Record<string, any>;
    expect(ready.template).toBe('GIRP');
    expect(Object.keys(ready.ai_generated_content).sort()).toEqual(['goals', 'intervention', 'plan', 'response']);
  }, 60_000);
});
