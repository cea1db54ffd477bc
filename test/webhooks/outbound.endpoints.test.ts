import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isolatedDatabase } from '../helpers/receiver.js';
import { startTestApp, TEST_OPERATOR_KEY, type TestApp } from '../helpers/test-app.js';

const KEY = { 'x-api-key': TEST_OPERATOR_KEY };
const ISO_MS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

describe('outbound webhook subscriptions', () => {
  let db: Awaited<ReturnType<typeof isolatedDatabase>>;
  let t: TestApp;
  let strict: TestApp;
  beforeAll(async () => {
    db = await isolatedDatabase();
    t = await startTestApp({ env: { DATABASE_URL: db.url } });
    strict = await startTestApp({ env: { DATABASE_URL: db.url, WEBHOOK_ALLOW_PRIVATE: 'false' } });
  });
  afterAll(async () => {
    await t?.close();
    await strict?.close();
    await db?.drop();
  });

  const create = (body: object, app = t) => request(app.app).post('/api/v1/webhook-endpoints').set(KEY).send(body);

  it('answers 401 without or with a wrong X-Api-Key', async () => {
    for (const path of ['/api/v1/webhook-endpoints', '/api/v1/webhook-endpoints/00000000-0000-4000-8000-000000000000/deliveries']) {
      const res = await request(t.app).get(path);
      expect(res.status).toBe(401);
      expect(res.body).toEqual({ success: false, error: 'Unauthorized', details: expect.any(String) });
    }
    expect((await request(t.app).post('/api/v1/webhook-endpoints').send({ url: 'http://127.0.0.1/x' })).status).toBe(401);
    expect(
      (await request(t.app).post('/api/v1/webhook-endpoints').set('x-api-key', 'nope').send({ url: 'http://127.0.0.1/x' })).status,
    ).toBe(401);
    expect((await request(t.app).delete('/api/v1/webhook-endpoints/00000000-0000-4000-8000-000000000000')).status).toBe(401);
    expect((await request(t.app).post('/api/v1/webhook-deliveries/00000000-0000-4000-8000-000000000000/replay')).status).toBe(401);
  });

  it('creates an endpoint with a whsec_ secret shown only once, lists it without the secret, deletes it', async () => {
    const res = await create({
      url: 'http://127.0.0.1:9/hook',
      events: ['note.ready', 'run.failed'],
      group_id: 'g-1',
      description: 'EHR',
      thin: true,
    });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      url: 'http://127.0.0.1:9/hook',
      events: ['note.ready', 'run.failed'],
      group_id: 'g-1',
      description: 'EHR',
      thin: true,
      kind: 'webhook',
      auth: null,
      receiving_application: null,
      receiving_facility: null,
      status: 'active',
      disabled_reason: null,
      ordering: 'none',
      max_per_second: null,
      health: 'ok',
      health_since: expect.stringMatching(ISO_MS),
      created_at: expect.stringMatching(ISO_MS),
      updated_at: expect.stringMatching(ISO_MS),
      secret: expect.stringMatching(/^whsec_[A-Za-z0-9+/]{43}=$/),
    });
    expect(Buffer.from(res.body.secret.slice(6), 'base64')).toHaveLength(32);

    const list = await request(t.app).get('/api/v1/webhook-endpoints').set(KEY);
    expect(list.status).toBe(200);
    const listed = list.body.find((e: { id: string }) => e.id === res.body.id);
    expect(listed).toEqual({ ...res.body, secret: undefined });
    expect(JSON.stringify(list.body)).not.toContain('whsec_');

    const del = await request(t.app).delete(`/api/v1/webhook-endpoints/${res.body.id}`).set(KEY);
    expect(del.status).toBe(204);
    const after = await request(t.app).get('/api/v1/webhook-endpoints').set(KEY);
    expect(after.body.find((e: { id: string }) => e.id === res.body.id)).toBeUndefined();
    expect((await request(t.app).delete(`/api/v1/webhook-endpoints/${res.body.id}`).set(KEY)).status).toBe(404);
    expect((await request(t.app).get(`/api/v1/webhook-endpoints/${res.body.id}/deliveries`).set(KEY)).status).toBe(404);
  });

  it('defaults to every event, operator-wide, full payloads', async () => {
    const res = await create({ url: 'https://93.184.215.14/hooks' });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ events: [], group_id: null, description: null, thin: false });
  });

  it.each([
    [{}, /url is required/],
    [{ url: 'ftp://example.com/x' }, /url: url must use http or https/],
    [{ url: 'not a url' }, /url: url must be an absolute/],
    [{ url: 'http://user:pw@example.com/x' }, /credentials/],
    [{ url: 'http://127.0.0.1:9/x', events: ['note.deleted'] }, /events\.0/],
    [{ url: 'http://127.0.0.1:9/x', events: 'note.ready' }, /events/],
    [{ url: 'http://127.0.0.1:9/x', thin: 'yes' }, /thin/],
    [{ url: 'http://127.0.0.1:9/x', secret: 'mine' }, /unknown field: secret/],
  ])('answers 400 for %j', async (body, details) => {
    const res = await create(body);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ success: false, error: 'Bad Request', details: expect.stringMatching(details) });
  });

  it.each([
    'http://127.0.0.1/hook',
    'http://10.0.0.1/hook',
    'http://[::1]/hook',
    'http://169.254.169.254/latest/meta-data',
    'http://localhost:8080/hook',
    'http://100.64.0.1/x',
    'http://192.168.1.10/x',
    'http://[fd00:ec2::254]/x',
    'http://[::ffff:127.0.0.1]/x',
    'http://0.0.0.0/x',
  ])('refuses %s at subscription when private addresses are not allowed', async (url) => {
    const res = await create({ url }, strict);
    expect(res.status).toBe(400);
    expect(res.body.details).toMatch(/^url: url host .* (non-public address|cannot be resolved)/);
  });

  it('answers 404 for unknown or malformed ids and validates pagination', async () => {
    expect((await request(t.app).delete('/api/v1/webhook-endpoints/not-a-uuid').set(KEY)).status).toBe(404);
    expect((await request(t.app).get('/api/v1/webhook-endpoints/not-a-uuid/deliveries').set(KEY)).status).toBe(404);
    const replay = await request(t.app).post('/api/v1/webhook-deliveries/00000000-0000-4000-8000-000000000000/replay').set(KEY);
    expect(replay.status).toBe(404);
    expect(replay.body.details).toMatch(/Webhook delivery 00000000-0000-4000-8000-000000000000 not found/);
    expect((await request(t.app).get('/api/v1/webhook-endpoints?limit=0').set(KEY)).status).toBe(400);
    expect((await request(t.app).get('/api/v1/webhook-endpoints?limit=x').set(KEY)).status).toBe(400);
    const page = await request(t.app).get('/api/v1/webhook-endpoints?limit=1&offset=0').set(KEY);
    expect(page.status).toBe(200);
    expect(page.body).toHaveLength(1);
  });
});
