import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isolatedDatabase, startReceiver, type Receiver } from '../helpers/receiver.js';
import { SlowReceiver } from '../helpers/slow-receiver.js';
import { startTestApp, TEST_OPERATOR_KEY, type TestApp } from '../helpers/test-app.js';
import { newCaller, type Caller } from '../helpers/tokens.js';

const KEY = { 'x-api-key': TEST_OPERATOR_KEY };
const SLOW_ENDPOINTS = 50;
const EVENTS_OF_A = 10;
const SLOW_MS = 3_000;
const CONCURRENCY = 4;

/**
 * DESIGN "Fair share between groups" (outbound), through the front door: group A has 50 slow
 * endpoints and a burst of events (500 deliveries, each answered after 3 s); group B's single
 * `transcription.created` is delivered while A's backlog is still there, and no endpoint ever
 * has more than WEBHOOK_ENDPOINT_CONCURRENCY attempts open, with two worker processes (two
 * runtimes, each with its own pg-boss and delivery worker) on one database.
 */
describe('outbound fair share: a slow group delays only its own deliveries', () => {
  let db: Awaited<ReturnType<typeof isolatedDatabase>>;
  let t: TestApp;
  let t2: TestApp;
  let slow: SlowReceiver;
  let fast: Receiver;
  const env = () => ({ DATABASE_URL: db.url, WEBHOOK_ENDPOINTS_PER_GROUP: String(SLOW_ENDPOINTS) });

  beforeAll(async () => {
    db = await isolatedDatabase();
    t = await startTestApp({ env: env(), workers: true });
    t2 = await startTestApp({ env: env(), workers: true });
    slow = await new SlowReceiver(SLOW_MS).start();
    fast = await startReceiver();
  });
  afterAll(async () => {
    await slow?.stop();
    await fast?.stop();
    await t2?.close();
    await t?.close();
    await db?.drop();
  });

  const transcription = (caller: Caller) =>
    request(t.app).post('/v1/transcriptions/create').set(caller.headers).send({ duration_seconds: 5, original_transcript: 'hello' });

  /** ms from B's 201 to its delivery's arrival. */
  const deliverB = async (b: Caller): Promise<number> => {
    const before = fast.received.length;
    const res = await transcription(b);
    expect(res.status).toBe(201);
    const posted = Date.now();
    await expect.poll(() => fast.received.length, { timeout: 30_000, interval: 10 }).toBe(before + 1);
    expect(fast.received.at(-1)!.json.data.transcription_id).toBe(res.body.transcription.id);
    return fast.received.at(-1)!.at - posted;
  };

  it("delivers B's transcription.created while A's 50 slow endpoints still have a backlog, at most 4 open per endpoint", async () => {
    const a = await newCaller();
    const b = await newCaller();
    const sub = await request(t.app)
      .post('/v1/webhook-endpoints')
      .set(b.headers)
      .send({ url: fast.url, events: ['transcription.created'] });
    expect(sub.status).toBe(201);
    const solo = await deliverB(b);

    for (let i = 0; i < SLOW_ENDPOINTS; i++) {
      const res = await request(t.app)
        .post('/v1/webhook-endpoints')
        .set(a.headers)
        .send({ url: slow.url(i) });
      expect(res.status).toBe(201);
    }
    const burst = await Promise.all(Array.from({ length: EVENTS_OF_A }, () => transcription(a)));
    expect(burst.map((r) => r.status)).toEqual(Array(EVENTS_OF_A).fill(201));
    // A's deliveries have started: its endpoints are busy.
    await expect.poll(() => slow.total(), { timeout: 30_000, interval: 20 }).toBeGreaterThan(0);

    const contended = await deliverB(b);
    const aDoneWhenBArrived = slow.total();
    console.info(`transcription.created of group B: solo ${solo} ms, beside group A's 50 slow endpoints ${contended} ms`);
    // B did not wait for A's backlog (500 deliveries at 3 s each, 4 at a time per endpoint: >= 9 s).
    expect(aDoneWhenBArrived).toBeLessThan(SLOW_ENDPOINTS * EVENTS_OF_A);

    await expect.poll(() => slow.total(), { timeout: 60_000, interval: 200 }).toBe(SLOW_ENDPOINTS * EVENTS_OF_A);
    const most = Math.max(...slow.maxOpen.values());
    expect(most).toBeLessThanOrEqual(CONCURRENCY);
    // The cap is a cap, not a queue of one: endpoints did use their slots in parallel.
    expect(most).toBe(CONCURRENCY);
    for (let i = 0; i < SLOW_ENDPOINTS; i++) expect(slow.received.get(`/hook/${i}`)).toBe(EVENTS_OF_A);
  }, 120_000);

  it('refuses a group endpoint past WEBHOOK_ENDPOINTS_PER_GROUP with 422; operator-wide endpoints do not count', async () => {
    const c = await newCaller();
    for (let i = 0; i < SLOW_ENDPOINTS; i++) {
      const res = await request(t.app)
        .post('/v1/webhook-endpoints')
        .set(c.headers)
        .send({ url: `http://127.0.0.1:9/g/${i}` });
      expect(res.status).toBe(201);
    }
    const over = await request(t.app).post('/v1/webhook-endpoints').set(c.headers).send({ url: 'http://127.0.0.1:9/over' });
    expect(over.status).toBe(422);
    expect(over.body).toEqual({
      success: false,
      error: 'Unprocessable Entity',
      details: expect.stringContaining('WEBHOOK_ENDPOINTS_PER_GROUP'),
    });
    const viaOperator = await request(t.app)
      .post('/api/v1/webhook-endpoints')
      .set(KEY)
      .send({ url: 'http://127.0.0.1:9/op', group_id: c.groupId });
    expect(viaOperator.status).toBe(422);
    expect((await request(t.app).post('/api/v1/webhook-endpoints').set(KEY).send({ url: 'http://127.0.0.1:9/wide' })).status).toBe(201);
    const [first] = (await request(t.app).get('/v1/webhook-endpoints').set(c.headers)).body as Array<{ id: string }>;
    expect((await request(t.app).delete(`/v1/webhook-endpoints/${first.id}`).set(c.headers)).status).toBe(204);
    expect((await request(t.app).post('/v1/webhook-endpoints').set(c.headers).send({ url: 'http://127.0.0.1:9/again' })).status).toBe(201);
  });
});
