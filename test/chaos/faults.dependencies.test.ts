import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isolatedDatabase } from '../helpers/isolated-database.js';
import { PROVIDER_SECRET, startFakeProvider, type FakeProvider } from '../helpers/fake-voice-provider.js';
import { validCall } from '../calls/calls.builders.js';
import { startReceiver, type Receiver } from '../helpers/receiver.js';
import { startTestApp, TEST_OPERATOR_KEY, type TestApp } from '../helpers/test-app.js';
import { newCaller } from '../helpers/tokens.js';

const operator = { 'x-api-key': TEST_OPERATOR_KEY };

/**
 * External parties failing: a webhook receiver that goes down and comes back on the same port,
 * and a voice provider answering 500s before it recovers. Every accepted request's effect
 * reaches them exactly once per id.
 */
describe('fault: a webhook receiver and the voice provider failing, then recovering', () => {
  let db: Awaited<ReturnType<typeof isolatedDatabase>>;
  let t: TestApp;
  let rx: Receiver;
  let provider: FakeProvider;
  beforeAll(async () => {
    db = await isolatedDatabase('calls');
    rx = await startReceiver();
    provider = await startFakeProvider();
    t = await startTestApp({
      workers: true,
      // Retries 1 s, 2 s, 4 s, 8 s apart: enough to outlast the outage below, short enough for a test.
      env: {
        DATABASE_URL: db.url,
        VOICE_PROVIDER_URL: provider.url,
        VOICE_PROVIDER_SECRET: PROVIDER_SECRET,
        WEBHOOK_RETRY_SCHEDULE: '1,2,4,8,8',
      },
    });
  });
  afterAll(async () => {
    await t?.close();
    await rx?.stop();
    await provider?.close();
    await db?.drop();
  });

  it('delivers every event once the receiver is back, one 2xx per webhook-id', async () => {
    const caller = await newCaller();
    const ep = await request(t.app)
      .post('/api/v1/webhook-endpoints')
      .set(operator)
      .send({ url: rx.url, group_id: caller.groupId, events: ['transcription.created'] });
    expect(ep.status).toBe(201);
    await rx.stop();
    const ids: string[] = [];
    for (let i = 0; i < 20; i++) {
      const res = await request(t.app)
        .post('/v1/transcriptions/create')
        .set(caller.headers)
        .send({ duration_seconds: i, original_transcript: `[doctor] visit ${i}` });
      expect(res.status).toBe(201);
      ids.push(res.body.transcription.id);
    }
    // Attempts fail while it is down (connection refused).
    await expect
      .poll(
        async () =>
          // SQL: nothing lost during the outage: attempt counts of 20 deliveries at once (the log shows them one endpoint page at a time, and this is a chaos guard).
          (
            await t.deps.pool.query(`SELECT count(*)::int AS n FROM webhook_deliveries WHERE endpoint_id = $1 AND attempt_count >= 1`, [
              ep.body.id,
            ])
          ).rows[0].n,
        {
          timeout: 20_000,
        },
      )
      .toBe(20);
    await rx.start(); // same port
    await expect.poll(() => rx.successesById().size, { timeout: 40_000, interval: 250 }).toBe(20);
    await new Promise((r) => setTimeout(r, 1_500)); // nothing more arrives
    expect([...rx.successesById().values()].every((n) => n === 1)).toBe(true);
    expect(new Set(rx.received.map((r) => r.json.data.transcription_id ?? r.json.data.id))).toEqual(new Set(ids));
    // SQL: nothing lost or duplicated: every delivery row of the endpoint, by status.
    const rows = await t.deps.pool.query(
      `SELECT status, count(*)::int AS n FROM webhook_deliveries WHERE endpoint_id = $1 GROUP BY status`,
      [ep.body.id],
    );
    expect(rows.rows).toEqual([{ status: 'delivered', n: 20 }]);
    // SQL: the refused attempts (no status code) across all deliveries, counted.
    const failed = await t.deps.pool.query(
      `SELECT count(*)::int AS n FROM webhook_delivery_attempts a JOIN webhook_deliveries d ON d.id = a.delivery_id WHERE d.endpoint_id = $1 AND a.status_code IS NULL`,
      [ep.body.id],
    );
    console.info(`[chaos] receiver outage: 20 events, ${failed.rows[0].n} refused attempts, delivered once each; lost: 0`);
    expect(failed.rows[0].n).toBeGreaterThanOrEqual(20);
  }, 90_000);

  it('dispatches every call once the voice provider stops failing (500s, then OK)', async () => {
    provider.answers.push({ status: 500 }, { status: 500 }, { status: 503 }, { status: 500 });
    const calls: string[] = [];
    for (let i = 0; i < 3; i++) {
      const res = await request(t.app)
        .post('/api/v1/calls/external-questionnaire')
        .set(operator)
        .send(validCall({ questionnaireId: `chaos-${i}` }));
      expect(res.status).toBe(202);
      calls.push(res.body.callId);
    }
    await expect
      .poll(
        async () =>
          (await Promise.all(calls.map(async (id) => (await request(t.app).get(`/api/v1/calls/${id}`).set(operator)).body.status))).filter(
            (status) => status === 'dispatched',
          ).length,
        {
          timeout: 60_000,
          interval: 500,
        },
      )
      .toBe(3);
    for (const callId of calls) {
      const sent = provider.requests.filter((r) => r.body.callId === callId);
      expect(sent.length).toBeGreaterThanOrEqual(1);
      expect(new Set(sent.map((r) => r.headers['webhook-id']))).toEqual(new Set([callId])); // one id: the provider can deduplicate
      const call = (await request(t.app).get(`/api/v1/calls/${callId}`).set(operator)).body;
      expect(call).toMatchObject({ status: 'dispatched', attempts: sent.length, statusReason: null });
    }
    // Four failures were answered, and each call got exactly one success.
    expect(provider.requests.length).toBe(3 + 4);
  }, 90_000);
});
