import { randomBytes } from 'node:crypto';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readInboundEvent } from '../helpers/api-reads.js';
import { captureProcessOutput, capturingLogger } from '../helpers/chaos-logs.js';
import { encounterData, envelope, postSigned } from '../helpers/inbound.js';
import { isolatedDatabase, startReceiver, type Receiver } from '../helpers/receiver.js';
import { startTestApp, TEST_OPERATOR_KEY, type TestApp } from '../helpers/test-app.js';
import { newCaller } from '../helpers/tokens.js';
import { joinRun, newThread, runBody, VISIT } from '../runs/runs.builders.js';

const operator = { 'x-api-key': TEST_OPERATOR_KEY };
const MARK = `PHIMARK${randomBytes(6).toString('hex')}`;
const PATIENT = `PATIENTMARK${randomBytes(6).toString('hex')}`;

/**
 * The whole documentation pipeline and the direct API, with marker strings in transcripts,
 * messages, notes and codify text: no marker may appear in any log line (debug level, errors
 * included), in /metrics, in health, or in any error body.
 */
describe('no PHI in logs, metrics, health or error bodies', () => {
  let db: Awaited<ReturnType<typeof isolatedDatabase>>;
  let t: TestApp;
  let rx: Receiver;
  const { logger, lines } = capturingLogger();
  const output = captureProcessOutput();
  const errorBodies: string[] = [];

  beforeAll(async () => {
    db = await isolatedDatabase();
    rx = await startReceiver();
    t = await startTestApp({ env: { DATABASE_URL: db.url, LOG_LEVEL: 'debug' }, logger, workers: true });
  });
  afterAll(async () => {
    output.restore();
    await t?.close();
    await rx?.stop();
    await db?.drop();
  });

  const keep = (res: request.Response) => {
    if (res.status >= 400) errorBodies.push(res.text);
    return res;
  };

  it('keeps markers out of every log line, /metrics, health and error bodies', async () => {
    const text = `${VISIT}\n[patient] my neighbour ${MARK} has the same cough.`;
    // Pipeline: EHR event -> transcription, run, note, codes -> note.ready to a receiver that fails first.
    let n = 0;
    rx.respond = () => (n++ < 2 ? { status: 500 } : { status: 200 });
    expect((await request(t.app).post('/api/v1/webhook-endpoints').set(operator).send({ url: rx.url })).status).toBe(201);
    const data = encounterData({ transcript: text, patient_id: PATIENT });
    const event = envelope('encounter.transcript', data);
    expect((await postSigned(t.app, 'ehr', event)).status).toBe(202);
    await expect.poll(() => rx.received.some((r) => r.json.type === 'note.ready' && r.answered === 200), { timeout: 45_000 }).toBe(true);
    const { pipeline } = await readInboundEvent(t.app, event.id);
    const stored = await request(t.app)
      .get(`/v1/transcriptions/${pipeline.transcription_id}`)
      .set((await newCaller(data.group_id)).headers);
    expect(stored.body.original_transcript).toContain(MARK); // the marker did travel the pipeline

    // Direct API calls.
    const caller = await newCaller();
    const h = { ...caller.headers, 'x-patient': PATIENT };
    const tr = keep(
      await request(t.app).post('/v1/transcriptions/create').set(h).send({ duration_seconds: 60, original_transcript: text }),
    );
    expect(tr.status).toBe(201);
    const thread = await newThread(t.app, caller);
    const chat = keep(
      await request(t.app)
        .post(`/v1/agent/threads/${thread}/runs`)
        .set(h)
        .send(runBody(thread, `${text}\nWhat is the plan for ${MARK}?`)),
    );
    await joinRun(t.app, caller, thread, chat.body.run_id, 30);
    const xthread = await newThread(t.app, caller);
    const extraction = keep(
      await request(t.app)
        .post(`/v1/agent/threads/${xthread}/runs`)
        .set(h)
        .set('x-is-chat', 'false')
        .send(runBody(xthread, 'x', { transcription_id: tr.body.transcription.id })),
    );
    const done = await joinRun(t.app, caller, xthread, extraction.body.run_id, 30);
    expect(done.status).toBe('completed');
    const noteId = done.output.note_id;
    keep(
      await request(t.app)
        .patch(`/v1/clinical-notes/${noteId}`)
        .set(h)
        .send({ feedback: `check ${MARK}`, ai_generated_content: { subjective: MARK, objective: MARK, assessment: MARK, plan: MARK } }),
    );
    keep(await request(t.app).get(`/v1/clinical-notes/${noteId}/fhir`).set(h));
    const codify = keep(
      await request(t.app)
        .post('/v1/codify')
        .set(h)
        .send({ medical_note: `Type 2 diabetes mellitus. ${MARK}` }),
    );
    expect(codify.status).toBe(200);

    // Error paths carrying the markers in values: refused input must not echo them back or log them.
    // (Names of unknown fields and event types are echoed by design: they are the caller's schema, not clinical values.)
    const bad = [
      await request(t.app).post('/v1/transcriptions/create').set(h).send({ duration_seconds: MARK, original_transcript: MARK }),
      await request(t.app)
        .post('/v1/transcriptions/create')
        .set(h)
        .send({ original_transcript: { text: MARK } }),
      await request(t.app)
        .post('/v1/transcriptions/create')
        .set(h)
        .set('content-type', 'application/json')
        .send(`{"original_transcript": "${MARK}`),
      await request(t.app)
        .post(`/v1/agent/threads/${thread}/runs`)
        .set(h)
        .send({ input: { messages: [{ role: MARK, content: MARK }] } }),
      await request(t.app)
        .post(`/v1/agent/threads/${thread}/runs`)
        .set(h)
        .send({ input: { messages: [{ role: 'user', content: 42 }] }, config: { configurable: { thread_id: thread } }, x: MARK }),
      await request(t.app)
        .patch(`/v1/clinical-notes/${noteId}`)
        .set(h)
        .send({ ai_generated_content: { subjective: MARK }, template: 'DAP' }),
      await request(t.app)
        .patch(`/v1/clinical-notes/${noteId}`)
        .set(h)
        .send({ feedback: [MARK] }),
      await request(t.app)
        .post('/v1/clinical-notes')
        .set(h)
        .send({ template: 'SOAP', ai_generated_content: { subjective: MARK, extra: MARK } }),
      await request(t.app)
        .post('/v1/codify')
        .set(h)
        .send({ medical_note: `${MARK} `.repeat(4000) }),
      await request(t.app)
        .post('/v1/codify')
        .set(h)
        .send({ medical_note: MARK, pdf_file: { data: MARK } }),
      await request(t.app).post('/v1/codify').set(h).send({ medical_note: MARK, extra: MARK }),
      await postSigned(t.app, 'ehr', envelope('encounter.transcript', { ...encounterData({ transcript: MARK }), duration_seconds: MARK })),
      await postSigned(t.app, 'ehr', envelope('encounter.transcript', { transcript: MARK })),
      await postSigned(t.app, 'ehr', envelope('encounter.unknown', { transcript: MARK })),
    ];
    for (const res of bad) {
      expect(res.status).toBeGreaterThanOrEqual(400);
      keep(res);
    }
    await new Promise((r) => setTimeout(r, 1_500)); // access and audit lines of the last requests

    const metrics = await request(t.app).get('/metrics');
    const health = await request(t.app).get('/api/v1/health');
    expect(metrics.status).toBe(200);
    expect(lines.length).toBeGreaterThan(20); // the capture works: request lines, job lines
    expect(lines.join('')).toMatch(/"message":"request"/);
    const leaks = (where: string, texts: string[]) =>
      texts.filter((s) => s.includes(MARK) || s.includes(PATIENT)).map((s) => `${where}: ${s.slice(0, 300)}`);
    expect([
      ...leaks('log', lines),
      ...leaks('stdout/stderr', output.lines),
      ...leaks('metrics', [metrics.text]),
      ...leaks('health', [health.text]),
      ...leaks('error body', errorBodies),
    ]).toEqual([]);
    console.info(
      `[chaos] PHI: ${lines.length} log lines, ${errorBodies.length} error bodies, metrics and health checked; markers found: 0`,
    );
  }, 120_000);
});
