import { randomUUID } from 'node:crypto';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withTransaction } from '../../src/db/transaction.js';
import { recordEvent, type OutboundEvent } from '../../src/outbound-events/outbox.repo.js';
import { insertEndpoint } from '../../src/modules/outbound-webhooks/endpoints/webhook-endpoints.repo.js';
import { generateWebhookSecret } from '../../src/lib/webhook-secret.js';
import { verifySignatures } from '../helpers/receiver.js';
import { startIsolatedTestApp, TEST_OPERATOR_KEY, type TestApp } from '../helpers/test-app.js';
import { newCaller } from '../helpers/tokens.js';
import { receivers, subscribe as subscribeAsOperator } from './webhooks.builders.js';

const KEY = { 'x-api-key': TEST_OPERATOR_KEY };
const POLL = { timeout: 20_000, interval: 100 };

describe('outbound webhook delivery', () => {
  let t: TestApp;
  const rxs = receivers();
  beforeAll(async () => {
    t = await startIsolatedTestApp({ workers: true });
  });
  afterAll(async () => {
    await rxs.stopAll();
    await t?.close();
  });

  const receiver = () => rxs.start();
  const subscribe = (body: Record<string, unknown>) => subscribeAsOperator(t.app, body);
  const record = (event: OutboundEvent) => withTransaction(t.deps.pool, (tx) => recordEvent(tx, event));
  const deliveries = async (endpointId: string, query = '') => {
    const res = await request(t.app).get(`/api/v1/webhook-endpoints/${endpointId}/deliveries${query}`).set(KEY);
    expect(res.status).toBe(200);
    return res.body as Array<{
      id: string;
      webhook_id: string;
      event_id: string;
      status: string;
      attempt_count: number;
      last_error: string | null;
      attempts: Array<{ attempt: number; status_code: number | null; duration_ms: number; error: string | null; created_at: string }>;
    }>;
  };
  const sample = (groupId: string): OutboundEvent => ({
    type: 'transcription.created',
    groupId,
    data: { transcription_id: randomUUID(), user_id: 'u-1', group_id: groupId, duration_seconds: 12, language_used: 'en' },
  });

  it('delivers a transcription created through the API, signed twice, verifiable by a subscriber', async () => {
    const rx = await receiver();
    const caller = await newCaller();
    const ep = await subscribe({ url: rx.url, group_id: caller.groupId });
    const created = await request(t.app)
      .post('/v1/transcriptions/create')
      .set(caller.headers)
      .send({ duration_seconds: 5, original_transcript: 'hello' });
    expect(created.status).toBe(201);
    await expect.poll(() => rx.received.length, POLL).toBe(1);
    const r = rx.received[0];
    expect(r.headers['content-type']).toMatch(/^application\/json/);
    expect(r.headers['x-integration-signature']).toMatch(/^sha256=[0-9a-f]{64}$/);
    expect(r.headers['webhook-signature']).toMatch(/^v1,/);
    expect(() => verifySignatures(ep.secret, r)).not.toThrow();
    expect(() => verifySignatures(generateWebhookSecret(), r)).toThrow();
    expect(r.json).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      type: 'transcription.created',
      created_at: expect.stringMatching(/Z$/),
      data: expect.objectContaining({ transcription_id: created.body.transcription.id, group_id: caller.groupId }),
    });
    await expect.poll(async () => (await deliveries(ep.id))[0]?.status, POLL).toBe('delivered');
    const [d] = await deliveries(ep.id);
    expect(d).toMatchObject({ webhook_id: r.webhookId, event_id: r.json.id, attempt_count: 1 });
    expect(d.attempts).toEqual([
      { attempt: 1, status_code: 200, duration_ms: expect.any(Number), error: null, created_at: expect.any(String) },
    ]);
  });

  it("sends only the group's events to a group endpoint, every event to an operator-wide one, only subscribed types", async () => {
    const [ra, rb, rc, rd] = [await receiver(), await receiver(), await receiver(), await receiver()];
    const g1 = `group-${randomUUID()}`;
    const g2 = `group-${randomUUID()}`;
    await subscribe({ url: ra.url, group_id: g1 });
    await subscribe({ url: rb.url, group_id: g2 });
    const wide = await subscribe({ url: rc.url });
    await subscribe({ url: rd.url, group_id: g1, events: ['note.ready'] });
    const e1 = await record(sample(g1));
    const e2 = await record({ type: 'note.ready', groupId: g1, data: { note_id: randomUUID(), group_id: g1 } });
    await expect.poll(() => rc.forEvent(e1).length + rc.forEvent(e2).length, POLL).toBe(2);
    await expect.poll(() => ra.received.length, POLL).toBe(2);
    await expect.poll(() => rd.received.length, POLL).toBe(1);
    expect(rd.received[0].json.id).toBe(e2);
    expect(rb.received).toHaveLength(0);
    await request(t.app).delete(`/api/v1/webhook-endpoints/${wide.id}`).set(KEY).expect(204);
    const e3 = await record(sample(g1));
    await expect.poll(() => ra.forEvent(e3).length, POLL).toBe(1);
    expect(rc.forEvent(e3)).toHaveLength(0);
  });

  it('gives thin endpoints the ids only', async () => {
    const rx = await receiver();
    const g = `group-${randomUUID()}`;
    await subscribe({ url: rx.url, group_id: g, thin: true });
    const noteId = randomUUID();
    await record({
      type: 'note.ready',
      groupId: g,
      data: { event_id: 'ehr-1', note_id: noteId, group_id: g, template: 'SOAP', ai_generated_content: { plan: 'rest' } },
    });
    await expect.poll(() => rx.received.length, POLL).toBe(1);
    expect(rx.received[0].json.data).toEqual({ event_id: 'ehr-1', note_id: noteId, group_id: g });
  });

  it('retries through a receiver that answers 503 and then a closed port, and every event arrives once per webhook-id', async () => {
    const rx = await receiver();
    const g = `group-${randomUUID()}`;
    await subscribe({ url: rx.url, group_id: g });
    let down = true;
    rx.respond = () => (down ? { status: 503 } : { status: 200 });
    const events = [];
    for (let i = 0; i < 5; i++) events.push(await record(sample(g)));
    await expect.poll(() => new Set(rx.received.map((r) => r.json.id)).size, POLL).toBe(5);
    await rx.stop(); // now the port is closed: connection refused
    const more = [await record(sample(g)), await record(sample(g))];
    await new Promise((r) => setTimeout(r, 1500));
    down = false;
    await rx.start();
    await expect.poll(() => rx.successesById().size, POLL).toBe(7);
    const ids = new Set(rx.received.filter((r) => r.answered === 200).map((r) => r.json.id));
    expect(ids).toEqual(new Set([...events, ...more]));
    await new Promise((r) => setTimeout(r, 1500));
    for (const count of rx.successesById().values()) expect(count).toBe(1);
  });

  it('honours a Retry-After longer than the schedule', async () => {
    const rx = await receiver();
    const g = `group-${randomUUID()}`;
    await subscribe({ url: rx.url, group_id: g });
    rx.respond = (_r, same) => (same === 0 ? { status: 429, headers: { 'retry-after': '3' } } : { status: 200 });
    await record(sample(g));
    await expect.poll(() => rx.received.length, POLL).toBe(2);
    expect(rx.received[1].at - rx.received[0].at).toBeGreaterThanOrEqual(2_900);
    expect(rx.received[1].webhookId).toBe(rx.received[0].webhookId);
  });

  it('disables the endpoint on 410: nothing more is sent to it, replay is 409', async () => {
    const rx = await receiver();
    const g = `group-${randomUUID()}`;
    const ep = await subscribe({ url: rx.url, group_id: g });
    rx.respond = () => ({ status: 410 });
    await record(sample(g));
    await expect.poll(async () => (await deliveries(ep.id))[0]?.status, POLL).toBe('dead');
    const list = await request(t.app).get('/api/v1/webhook-endpoints').set(KEY);
    expect(list.body.find((e: { id: string }) => e.id === ep.id)).toMatchObject({
      status: 'disabled',
      disabled_reason: expect.stringMatching(/410/),
    });
    await record(sample(g));
    await new Promise((r) => setTimeout(r, 1500));
    expect(rx.received).toHaveLength(1);
    expect(await deliveries(ep.id)).toHaveLength(1);
    const [d] = await deliveries(ep.id);
    const replay = await request(t.app).post(`/api/v1/webhook-deliveries/${d.id}/replay`).set(KEY);
    expect(replay.status).toBe(409);
  });

  it('marks a delivery dead after the last attempt; replay delivers it with the same webhook-id', async () => {
    const rx = await receiver();
    const g = `group-${randomUUID()}`;
    const ep = await subscribe({ url: rx.url, group_id: g });
    rx.respond = () => ({ status: 500 });
    await record(sample(g));
    await expect.poll(async () => (await deliveries(ep.id))[0]?.status, POLL).toBe('dead');
    const [dead] = await deliveries(ep.id);
    expect(dead.attempt_count).toBe(4); // first attempt and the three retries of '1,1,1'
    expect(dead.attempts.map((a) => [a.attempt, a.status_code, a.error])).toEqual([1, 2, 3, 4].map((n) => [n, 500, 'HTTP 500']));
    expect(rx.received).toHaveLength(4);
    rx.respond = () => ({ status: 204 });
    const replay = await request(t.app).post(`/api/v1/webhook-deliveries/${dead.id}/replay`).set(KEY);
    expect(replay.status).toBe(202);
    await expect.poll(async () => (await deliveries(ep.id))[0]?.status, POLL).toBe('delivered');
    expect(rx.received).toHaveLength(5);
    expect(new Set(rx.received.map((r) => r.webhookId))).toEqual(new Set([dead.webhook_id]));
    // a delivered one can be replayed too, still with the same webhook-id
    expect((await request(t.app).post(`/api/v1/webhook-deliveries/${dead.id}/replay`).set(KEY)).status).toBe(202);
    await expect.poll(() => rx.received.length, POLL).toBe(6);
    expect(rx.received[5].webhookId).toBe(dead.webhook_id);
    await expect.poll(async () => (await deliveries(ep.id))[0]?.attempt_count, POLL).toBe(6);
  });

  it('lists deliveries newest first with limit and offset', async () => {
    const rx = await receiver();
    const g = `group-${randomUUID()}`;
    const ep = await subscribe({ url: rx.url, group_id: g });
    const ids = [await record(sample(g)), await record(sample(g)), await record(sample(g))];
    await expect.poll(async () => (await deliveries(ep.id)).filter((d) => d.status === 'delivered').length, POLL).toBe(3);
    expect((await deliveries(ep.id)).map((d) => d.event_id)).toEqual([...ids].reverse());
    expect((await deliveries(ep.id, '?limit=1&offset=1')).map((d) => d.event_id)).toEqual([ids[1]]);
    const body = JSON.stringify(await deliveries(ep.id));
    expect(body).not.toContain('"ok":true'); // never the response body
  });

  it.each(['127.0.0.1', '10.0.0.1', '[::1]', '169.254.169.254', 'localhost'])(
    'refuses %s at delivery time when private addresses are not allowed, and gives up at once',
    async (host) => {
      const g = `group-${randomUUID()}`;
      // As if subscribed to a public name that now resolves to a private address (DNS rebinding).
      const ep = await insertEndpoint(t.deps.pool, {
        id: randomUUID(),
        url: `http://${host}:9/hook`,
        events: [],
        groupId: g,
        description: null,
        thin: false,
        secret: generateWebhookSecret(),
        allowPrivate: false,
      });
      await record(sample(g));
      await expect.poll(async () => (await deliveries(ep.id))[0]?.status, POLL).toBe('dead');
      const [d] = await deliveries(ep.id);
      expect(d.attempts).toHaveLength(1);
      expect(d.attempts[0]).toMatchObject({ status_code: null, error: expect.stringMatching(/^refused: url host .* non-public address/) });
    },
  );
});
