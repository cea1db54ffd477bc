import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { envelope, postSigned } from '../helpers/inbound.js';
import { isolatedDatabase } from '../helpers/isolated-database.js';
import { PROVIDER_SECRET, startFakeProvider, type FakeProvider } from '../helpers/fake-voice-provider.js';
import { startReceiver, type Receiver } from '../helpers/receiver.js';
import { startTestApp, TEST_API_KEYS, TEST_OPERATOR_KEY, type TestApp } from '../helpers/test-app.js';
import { waitFor } from '../helpers/wait-for.js';
import { validCall } from './calls.builders.js';

const VOICE = { 'x-api-key': TEST_API_KEYS[0] };
const OPERATOR = { 'x-api-key': TEST_OPERATOR_KEY };

/**
 * DESIGN "Delivery operations": a call with no terminal status CALL_TIMEOUT_MINUTES after dispatch
 * is asked of the provider once (`GET <VOICE_PROVIDER_URL>/calls/{providerCallId}`), then ends
 * `timed_out` with `call.completed`; a late post-call event is still applied, and its replay changes
 * nothing. CALL_TIMEOUT_MINUTES is 0.03 here (2 s).
 */
describe('calls that never hang', () => {
  let t: TestApp;
  let provider: FakeProvider;
  let rx: Receiver;
  let db: Awaited<ReturnType<typeof isolatedDatabase>>;
  beforeAll(async () => {
    db = await isolatedDatabase('calls');
    provider = await startFakeProvider();
    rx = await startReceiver();
    t = await startTestApp({
      workers: true,
      env: { DATABASE_URL: db.url, VOICE_PROVIDER_URL: provider.url, VOICE_PROVIDER_SECRET: PROVIDER_SECRET, CALL_TIMEOUT_MINUTES: '0.03' },
    });
    const sub = await request(t.app)
      .post('/api/v1/webhook-endpoints')
      .set(OPERATOR)
      .send({ url: rx.url, events: ['call.completed', 'call.updated'] });
    expect(sub.status).toBe(201);
  });
  afterAll(async () => {
    await t?.close();
    await provider?.close();
    await rx?.stop();
    await db?.drop();
  });

  const read = async (callId: string) => (await request(t.app).get(`/api/v1/calls/${callId}`).set(VOICE)).body;
  const untilStatus = (callId: string, status: string) =>
    waitFor(async () => {
      const call = await read(callId);
      return call.status === status ? call : undefined;
    }, 30_000);
  /** A dispatched call and the id the provider gave it. */
  const dispatched = async () => {
    const created = await request(t.app).post('/api/v1/calls/external-questionnaire').set(VOICE).send(validCall());
    expect(created.status).toBe(202);
    const call = await untilStatus(created.body.callId, 'dispatched');
    return { callId: call.callId as string, providerCallId: call.providerCallId as string };
  };
  const asked = (providerCallId: string) => provider.requests.filter((r) => r.method === 'GET' && r.path.endsWith(`/${providerCallId}`));
  const eventsOf = (callId: string) =>
    rx.received.filter((r) => r.json.data.callId === callId).map((r) => `${r.json.type}:${r.json.data.status}`);

  it('asks the provider once, then ends timed_out with one call.completed; /metrics and the console count it', async () => {
    const { callId, providerCallId } = await dispatched();
    provider.callStatus.set(providerCallId, { status: 200, body: { status: 'in_progress' } });
    const call = await untilStatus(callId, 'timed_out');
    expect(call.statusReason).toMatch(/No terminal status 0.03 minutes after dispatch \(the provider reported in_progress\)/);
    expect(call.completedAt).toEqual(expect.any(String));
    expect(asked(providerCallId)).toHaveLength(1);
    expect(asked(providerCallId)[0].path).toBe(`/calls/calls/${providerCallId}`);
    expect(asked(providerCallId)[0].headers['x-integration-signature']).toMatch(/^sha256=/);
    await waitFor(async () => eventsOf(callId).includes('call.completed:timed_out') || undefined, 20_000);
    expect(eventsOf(callId).filter((e) => e.startsWith('call.completed'))).toEqual(['call.completed:timed_out']);

    const metrics = await request(t.app).get('/metrics');
    expect(metrics.text).toMatch(/clinigate_resources\{table="calls",state="timed_out"\} [1-9]/);
    const summary = await request(t.app).get('/api/v1/console/calls').set(OPERATOR);
    expect(summary.body).toEqual(expect.arrayContaining([expect.objectContaining({ status: 'timed_out' })]));
  }, 60_000);

  it("applies the provider's final status when it has one, and times out without asking when it gave no answer", async () => {
    const done = await dispatched();
    provider.callStatus.set(done.providerCallId, { status: 200, body: { status: 'no_answer' } });
    const ended = await untilStatus(done.callId, 'no_answer');
    expect(ended.statusReason).toMatch(/Reported no_answer by the voice provider/);

    const silent = await dispatched(); // the provider answers 404 for this one
    await untilStatus(silent.callId, 'timed_out');
    expect(asked(silent.providerCallId)).toHaveLength(1);
  }, 60_000);

  it('still applies a late post-call event to a timed-out call; its replay is idempotent', async () => {
    const { callId } = await dispatched();
    await untilStatus(callId, 'timed_out');
    const answers = envelope('call.answers', { callId, answers: [{ questionId: 'q1', answer: 'yes' }] });
    expect((await postSigned(t.app, 'voice', answers)).status).toBe(202);
    await waitFor(async () => ((await read(callId)).answers.length === 1 ? true : undefined), 20_000);
    expect((await postSigned(t.app, 'voice', answers)).body).toMatchObject({ duplicate: true });
    // The same report again under a new event id: applied, nothing changes, nothing announced again.
    const again = { ...answers, id: `${answers.id}-again` };
    expect((await postSigned(t.app, 'voice', again)).status).toBe(202);
    const late = envelope('call.status', { callId, status: 'completed' });
    expect((await postSigned(t.app, 'voice', late)).status).toBe(202);
    const call = await untilStatus(callId, 'completed');
    expect(call.answers).toEqual([{ questionId: 'q1', answer: 'yes' }]);
    await waitFor(async () => eventsOf(callId).includes('call.completed:completed') || undefined, 20_000);
    expect(eventsOf(callId).filter((e) => e.startsWith('call.updated:timed_out'))).toHaveLength(1);
  }, 60_000);
});
