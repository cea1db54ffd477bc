import { createHmac } from 'node:crypto';
import request from 'supertest';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, TEST_API_KEYS, type TestApp } from '../helpers/test-app.js';
import { isolatedDatabase } from '../helpers/isolated-database.js';
import { PROVIDER_SECRET, startFakeProvider, type FakeProvider } from '../helpers/fake-voice-provider.js';
import { waitFor } from '../helpers/wait-for.js';
import { validCall } from './calls.builders.js';

/** Calls handed to a real HTTP provider on 127.0.0.1 by the dispatch worker. Own database (see support.ts). */
describe('call dispatch to the voice provider', () => {
  let t: TestApp;
  let provider: FakeProvider;
  let db: Awaited<ReturnType<typeof isolatedDatabase>>;
  beforeAll(async () => {
    db = await isolatedDatabase('calls');
    provider = await startFakeProvider();
    t = await startTestApp({
      workers: true,
      env: { DATABASE_URL: db.url, VOICE_PROVIDER_URL: provider.url, VOICE_PROVIDER_SECRET: PROVIDER_SECRET },
    });
  });
  afterAll(async () => {
    await t.close();
    await provider.close();
    await db.drop();
  });

  const create = (body: unknown) =>
    request(t.app)
      .post('/api/v1/calls/external-questionnaire')
      .set('x-api-key', TEST_API_KEYS[0])
      .send(body as object);
  const read = async (callId: string) => (await request(t.app).get(`/api/v1/calls/${callId}`).set('x-api-key', TEST_API_KEYS[0])).body;
  const requestsFor = (callId: string) => provider.requests.filter((r) => r.body.callId === callId);
  const untilStatus = (callId: string, status: string) =>
    waitFor(async () => {
      const call = await read(callId);
      return call.status === status ? call : undefined;
    });

  it('POSTs the call signed twice, stores the provider id and marks it dispatched', async () => {
    const created = await create(validCall({ metadata: { campaign: 'flu' }, language: 'es' }));
    expect(created.status).toBe(202);
    const callId = created.body.callId;
    const call = await untilStatus(callId, 'dispatched');
    const [sent] = requestsFor(callId);
    expect(sent.body).toMatchObject({
      callId,
      questionnaireId: 'phq-9',
      phoneNumber: '+34915550142',
      language: 'es',
      metadata: { campaign: 'flu' },
    });
    expect(sent.headers['content-type']).toMatch(/application\/json/);
    expect(sent.headers['idempotency-key']).toBe(callId);
    // X-Integration-Signature: hex HMAC-SHA256 over the raw body, the whole secret as key.
    const hex = createHmac('sha256', PROVIDER_SECRET).update(sent.raw).digest('hex');
    expect(sent.headers['x-integration-signature']).toBe(`sha256=${hex}`);
    // Standard Webhooks: the library's own verification.
    expect(sent.headers['webhook-id']).toBe(callId);
    expect(() => new Webhook(PROVIDER_SECRET).verify(sent.raw, sent.headers as Record<string, string>)).not.toThrow();
    expect(() =>
      new Webhook(`whsec_${Buffer.from('other-secret').toString('base64')}`).verify(sent.raw, sent.headers as Record<string, string>),
    ).toThrow();

    expect(call).toMatchObject({ status: 'dispatched', statusReason: null, attempts: 1, providerCallId: expect.stringMatching(/^prov-/) });
    expect(call.dispatchedAt).toEqual(expect.any(String));
    // SQL: the outbox has no read API (its events are only seen delivered, by an endpoint's receiver).
    const events = await t.deps.pool.query(`SELECT type, group_id, data FROM outbox WHERE data->>'callId' = $1`, [callId]);
    expect(events.rows).toEqual([
      {
        type: 'call.updated',
        group_id: null,
        data: expect.objectContaining({ callId, status: 'dispatched', group_id: null, changes: ['status'] }),
      },
    ]);
    expect(JSON.stringify(events.rows)).not.toContain('+34915550142');
  });

  it('retries after a provider failure (500, then 200) with the same webhook-id', async () => {
    provider.answers.push({ status: 500 });
    const created = await create(validCall({ questionnaireId: 'retry-me' }));
    const callId = created.body.callId;
    const call = await untilStatus(callId, 'dispatched');
    const sent = requestsFor(callId);
    expect(sent).toHaveLength(2);
    expect(sent[0].headers['webhook-id']).toBe(sent[1].headers['webhook-id']);
    expect(call).toMatchObject({ attempts: 2, statusReason: null });
  });

  it('a 4xx other than 429 fails the call with the reason', async () => {
    provider.answers.push({ status: 400, body: { error: 'bad number' } });
    const created = await create(validCall({ questionnaireId: 'refused' }));
    const call = await untilStatus(created.body.callId, 'failed');
    expect(call.statusReason).toMatch(/refused the call \(HTTP 400\)/);
    expect(call.attempts).toBe(1);
    expect(call.completedAt).toEqual(expect.any(String));
  });

  it('a 429 is retried like a 5xx', async () => {
    provider.answers.push({ status: 429 });
    const created = await create(validCall({ questionnaireId: 'rate-limited' }));
    const call = await untilStatus(created.body.callId, 'dispatched');
    expect(call.attempts).toBe(2);
  });

  it('dispatches a scheduled call at scheduledAt, not before', async () => {
    const scheduledAt = new Date(Date.now() + 4_000);
    const created = await create(validCall({ questionnaireId: 'scheduled', scheduledAt: scheduledAt.toISOString() }));
    const callId = created.body.callId;
    await new Promise((r) => setTimeout(r, 2_000));
    expect(requestsFor(callId)).toHaveLength(0);
    expect((await read(callId)).status).toBe('queued');
    await untilStatus(callId, 'dispatched');
    const [sent] = requestsFor(callId);
    expect(sent.at).toBeGreaterThanOrEqual(scheduledAt.getTime() - 50);
  });
});
