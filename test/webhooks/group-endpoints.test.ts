import { randomUUID } from 'node:crypto';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isolatedDatabase, verifySignatures } from '../helpers/receiver.js';
import { startTestApp, TEST_API_KEYS, TEST_OPERATOR_KEY, type TestApp } from '../helpers/test-app.js';
import { newCaller, type Caller } from '../helpers/tokens.js';
import { receivers } from './webhooks.builders.js';

const POLL = { timeout: 20_000, interval: 100 };

describe('group-owned webhook subscriptions (/v1/webhook-endpoints)', () => {
  let db: Awaited<ReturnType<typeof isolatedDatabase>>;
  let t: TestApp;
  const rxs = receivers();
  beforeAll(async () => {
    db = await isolatedDatabase();
    t = await startTestApp({ env: { DATABASE_URL: db.url }, workers: true });
  });
  afterAll(async () => {
    await rxs.stopAll();
    await t?.close();
    await db?.drop();
  });
  const receiver = () => rxs.start();
  const subscribe = (caller: Caller, body: Record<string, unknown>) =>
    request(t.app).post('/v1/webhook-endpoints').set(caller.headers).send(body);
  const transcribe = (caller: Caller) =>
    request(t.app)
      .post('/v1/transcriptions/create')
      .set(caller.headers)
      .send({ duration_seconds: 5, original_transcript: `visit of ${caller.groupId}` });

  it('a group subscribes with its token, receives its own events only, and sees its deliveries', async () => {
    const [a, b] = [await newCaller(), await newCaller()];
    const rx = await receiver();
    const created = await subscribe(a, { url: rx.url, events: ['transcription.created'] });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ id: expect.any(String), group_id: a.groupId, secret: expect.stringMatching(/^whsec_/) });
    expect(created.headers['cache-control']).toBe('no-store');

    expect((await transcribe(b)).status).toBe(201);
    const mine = await transcribe(a);
    await expect.poll(() => rx.received.length, POLL).toBe(1);
    await new Promise((r) => setTimeout(r, 500));
    expect(rx.received).toHaveLength(1);
    expect(rx.received[0].json.data).toMatchObject({ transcription_id: mine.body.transcription.id, group_id: a.groupId });
    expect(() => verifySignatures(created.body.secret, rx.received[0])).not.toThrow();

    const list = await request(t.app).get('/v1/webhook-endpoints').set(a.headers);
    expect(list.body.map((e: { id: string }) => e.id)).toEqual([created.body.id]);
    expect(JSON.stringify(list.body)).not.toContain('whsec_');
    const deliveries = await request(t.app).get(`/v1/webhook-endpoints/${created.body.id}/deliveries`).set(a.headers);
    expect(deliveries.status).toBe(200);
    expect(deliveries.body).toHaveLength(1);
    const replay = await request(t.app).post(`/v1/webhook-deliveries/${deliveries.body[0].id}/replay`).set(a.headers);
    expect(replay.status).toBe(202);
    await expect.poll(() => rx.received.length, POLL).toBe(2);
  });

  it("is 404 to another group on every route, and another group's list is empty", async () => {
    const [a, b] = [await newCaller(), await newCaller()];
    const rx = await receiver();
    const ep = (await subscribe(a, { url: rx.url })).body;
    await transcribe(a);
    await expect.poll(() => rx.received.length, POLL).toBe(1);
    const delivery = (await request(t.app).get(`/v1/webhook-endpoints/${ep.id}/deliveries`).set(a.headers)).body[0];
    expect((await request(t.app).get('/v1/webhook-endpoints').set(b.headers)).body).toEqual([]);
    for (const res of [
      await request(t.app).get(`/v1/webhook-endpoints/${ep.id}/deliveries`).set(b.headers),
      await request(t.app).post(`/v1/webhook-deliveries/${delivery.id}/replay`).set(b.headers),
      await request(t.app).delete(`/v1/webhook-endpoints/${ep.id}`).set(b.headers),
    ]) {
      expect(res.status).toBe(404);
      expect(res.body).toMatchObject({ success: false, error: 'Not Found' });
    }
    // Still there for its owner.
    expect((await request(t.app).get('/v1/webhook-endpoints').set(a.headers)).body).toHaveLength(1);
  });

  it('cannot make an endpoint for another group or an operator-wide one with a token (403), nor with a voice key', async () => {
    const a = await newCaller();
    const other = await subscribe(a, { url: 'http://127.0.0.1:9/x', group_id: `group-${randomUUID()}` });
    expect(other.status).toBe(403);
    expect(other.body).toMatchObject({ success: false, error: 'Forbidden' });
    // Without group_id it is the token's group, never operator-wide.
    const own = await subscribe(a, { url: 'http://127.0.0.1:9/x', group_id: null });
    expect(own.body.group_id).toBe(a.groupId);
    const voice = await request(t.app)
      .post('/api/v1/webhook-endpoints')
      .set('x-api-key', TEST_API_KEYS[0])
      .send({ url: 'http://127.0.0.1:9/x' });
    expect(voice.status).toBe(403);
    const op = await request(t.app)
      .post('/api/v1/webhook-endpoints')
      .set('x-api-key', TEST_OPERATOR_KEY)
      .send({ url: 'http://127.0.0.1:9/x' });
    expect(op.status).toBe(201);
    expect(op.body.group_id).toBeNull();
  });

  it('needs the bearer token and x-doctor', async () => {
    expect((await request(t.app).get('/v1/webhook-endpoints')).status).toBe(401);
    const a = await newCaller();
    expect((await request(t.app).get('/v1/webhook-endpoints').set({ authorization: a.headers.authorization })).status).toBe(400);
  });

  it('stores the secret encrypted, and wipes it on delete', async () => {
    const a = await newCaller();
    const ep = (await subscribe(a, { url: 'http://127.0.0.1:9/enc' })).body;
    // SQL: the guarantee is that the secret is sealed at rest (the API shows it only once, at creation).
    const stored = (await t.deps.pool.query(`SELECT secret FROM webhook_endpoints WHERE id = $1`, [ep.id])).rows[0].secret as string;
    expect(stored).toMatch(/^enc:v2:[0-9a-f]{8}:/);
    expect(stored).not.toContain(ep.secret.slice(6, 20));
    expect(t.deps.secrets.open(stored, { table: 'webhook_endpoints', column: 'secret', id: ep.id })).toBe(ep.secret);
    expect((await request(t.app).delete(`/v1/webhook-endpoints/${ep.id}`).set(a.headers)).status).toBe(204);
    // SQL: the guarantee is that delete wipes the stored secret (a deleted endpoint is 404 to the API).
    expect((await t.deps.pool.query(`SELECT secret, status FROM webhook_endpoints WHERE id = $1`, [ep.id])).rows[0]).toEqual({
      secret: '',
      status: 'deleted',
    });
  });

  it('seals secrets stored in plain text before encryption was on, at the next start, and they keep signing', async () => {
    const id = randomUUID();
    const plain = `whsec_${Buffer.alloc(32, 3).toString('base64')}`;
    await t.deps.pool.query(
      `INSERT INTO webhook_endpoints (id, url, secret, allow_private) VALUES ($1, 'http://127.0.0.1:9/old', $2, true)`,
      [id, plain],
    );
    const again = await startTestApp({ env: { DATABASE_URL: db.url } });
    try {
      // SQL: the guarantee is that a secret stored in clear is sealed at start (the API never shows it).
      const stored = (await t.deps.pool.query(`SELECT secret FROM webhook_endpoints WHERE id = $1`, [id])).rows[0].secret as string;
      expect(stored).toMatch(/^enc:v2:[0-9a-f]{8}:/);
      expect(again.deps.secrets.open(stored, { table: 'webhook_endpoints', column: 'secret', id })).toBe(plain);
    } finally {
      await again.close();
    }
  });
});
