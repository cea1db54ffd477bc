import { randomUUID } from 'node:crypto';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isolatedDatabase, type Receiver } from '../helpers/receiver.js';
import { startTestApp, TEST_OPERATOR_KEY, type TestApp } from '../helpers/test-app.js';
import { newCaller, type Caller } from '../helpers/tokens.js';
import { receivers, subscribe } from '../webhooks/webhooks.builders.js';
import { runCli } from './cli-helpers.js';

const KEY = { 'x-api-key': TEST_OPERATOR_KEY };
const POLL = { timeout: 30_000, interval: 100 };

describe('clinigate webhooks replay --dead', { timeout: 120_000 }, () => {
  let db: Awaited<ReturnType<typeof isolatedDatabase>>;
  let t: TestApp;
  const rxs = receivers();
  beforeAll(async () => {
    db = await isolatedDatabase();
    // One retry right away, then dead.
    t = await startTestApp({ env: { DATABASE_URL: db.url, WEBHOOK_RETRY_SCHEDULE: '0' }, workers: true });
  });
  afterAll(async () => {
    await rxs.stopAll();
    await t?.close();
    await db?.drop();
  });

  const deliveries = async (endpointId: string) =>
    (await request(t.app).get(`/api/v1/webhook-endpoints/${endpointId}/deliveries`).set(KEY)).body as Array<{
      id: string;
      status: string;
      attempt_count: number;
    }>;

  /** A subscriber of one group whose receiver fails, and one delivery of that group that ends dead. */
  async function deadDelivery(): Promise<{ rx: Receiver; endpoint: string; delivery: string; caller: Caller }> {
    const rx = await rxs.start();
    rx.respond = () => ({ status: 500 });
    const caller = await newCaller();
    const ep = await subscribe(t.app, { url: rx.url, group_id: caller.groupId });
    const created = await request(t.app)
      .post('/v1/transcriptions/create')
      .set(caller.headers)
      .send({ duration_seconds: 5, original_transcript: 'hello' });
    expect(created.status).toBe(201);
    await expect.poll(async () => (await deliveries(ep.id))[0]?.status, POLL).toBe('dead');
    const [d] = await deliveries(ep.id);
    expect(d.attempt_count).toBe(2);
    return { rx, endpoint: ep.id, delivery: d.id, caller };
  }

  it('queues the dead deliveries of one endpoint, then of all; the workers send them again with the same webhook-id', async () => {
    const a = await deadDelivery();
    const b = await deadDelivery();
    a.rx.respond = () => ({ status: 200 });
    b.rx.respond = () => ({ status: 200 });
    const env = { DATABASE_URL: db.url };

    const one = await runCli(['webhooks', 'replay', '--dead', '--endpoint', a.endpoint], env);
    expect(one).toMatchObject({ code: 0, stderr: '', stdout: `Queued 1 dead delivery for replay (endpoint ${a.endpoint}).\n` });
    await expect.poll(async () => (await deliveries(a.endpoint))[0]?.status, POLL).toBe('delivered');
    expect(a.rx.received.map((r) => [r.webhookId, r.answered])).toEqual([
      [a.delivery, 500],
      [a.delivery, 500],
      [a.delivery, 200],
    ]);
    // The other endpoint's delivery was left alone.
    expect((await deliveries(b.endpoint))[0].status).toBe('dead');
    expect(b.rx.received).toHaveLength(2);

    const all = await runCli(['webhooks', 'replay', '--dead'], env);
    expect(all).toMatchObject({ code: 0, stdout: 'Queued 1 dead delivery for replay.\n' });
    await expect.poll(async () => (await deliveries(b.endpoint))[0]?.status, POLL).toBe('delivered');
    expect(b.rx.received.at(-1)).toMatchObject({ webhookId: b.delivery, answered: 200 });

    const none = await runCli(['webhooks', 'replay', '--dead'], env);
    expect(none).toMatchObject({ code: 0, stdout: 'No dead deliveries: nothing queued.\n' });
    expect(a.rx.received).toHaveLength(3);
  });

  it('names an unknown endpoint (exit 1) and a malformed id (exit 2)', async () => {
    const env = { DATABASE_URL: db.url };
    const missing = randomUUID();
    const [unknown, malformed] = await Promise.all([
      runCli(['webhooks', 'replay', '--dead', '--endpoint', missing], env),
      runCli(['webhooks', 'replay', '--dead', '--endpoint', 'not-an-id'], env),
    ]);
    expect(unknown).toMatchObject({ code: 1, stdout: '' });
    expect(unknown.stderr.trim()).toBe(`error: webhook endpoint ${missing} not found`);
    expect(malformed).toMatchObject({ code: 2, stdout: '' });
    expect(malformed.stderr.trim()).toBe('error: --endpoint "not-an-id" is not a webhook endpoint id (a UUID)');
  });
});
