import { randomUUID } from 'node:crypto';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { keyFingerprint } from '../../src/config.js';
import { validCall } from '../calls/calls.builders.js';
import { readAuditByClientRequestId } from '../helpers/api-reads.js';
import { startTestApp, TEST_API_KEYS, TEST_OPERATOR_KEY, TEST_OPERATOR_KEYS, type TestApp } from '../helpers/test-app.js';
import { newCaller, tokenFor } from '../helpers/tokens.js';

const VOICE = { 'x-api-key': TEST_API_KEYS[0] };
const OPERATOR = { 'x-api-key': TEST_OPERATOR_KEY };
const BARE_OPERATOR = { 'x-api-key': TEST_OPERATOR_KEYS[1] };

/** Every X-Api-Key route other than calls and centers: a voice key gets 403 on each. */
const OPERATOR_ONLY: Array<[string, string]> = [
  ['get', '/api/v1/webhook-endpoints'],
  ['post', '/api/v1/webhook-endpoints'],
  ['delete', `/api/v1/webhook-endpoints/${randomUUID()}`],
  ['post', `/api/v1/webhook-endpoints/${randomUUID()}/enable`],
  ['get', `/api/v1/webhook-endpoints/${randomUUID()}/deliveries`],
  ['post', `/api/v1/webhook-deliveries/${randomUUID()}/replay`],
  ['get', '/api/v1/webhooks/events/evt-1'],
  ['post', '/api/v1/webhooks/events/evt-1/retry'],
  ['get', '/api/v1/audit-events'],
  ['get', '/api/v1/console/overview'],
  ['get', `/api/v1/console/runs/${randomUUID()}`],
  ['post', `/api/v1/console/runs/${randomUUID()}/cancel`],
];

describe('credentials: voice keys reach calls and centers only, operator keys everything', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  const since = new Date().toISOString();
  const auditOf = async (clientRequestId: string) => {
    for (let i = 0; i < 100; i++) {
      const rows = await readAuditByClientRequestId(t.app, clientRequestId, since);
      if (rows.length) return rows.map((r) => ({ user_id: r.user, operation: r.operation, status: r.status }));
      await new Promise((r) => setTimeout(r, 20));
    }
    return [];
  };

  it('answers a voice key 403 Forbidden on every operator route, and stores nothing', async () => {
    for (const [method, path] of OPERATOR_ONLY) {
      const res = await request(t.app)
        [method as 'get'](path)
        .set(VOICE)
        .send(method === 'post' ? { url: 'http://127.0.0.1:9/x' } : undefined);
      expect(res.status, `${method} ${path}`).toBe(403);
      expect(res.body).toEqual({ success: false, error: 'Forbidden', details: expect.stringMatching(/operator key/) });
    }
    const listed = await request(t.app).get('/api/v1/webhook-endpoints?limit=200').set('x-api-key', TEST_OPERATOR_KEY);
    expect(listed.status).toBe(200);
    expect(listed.body.filter((e: { url: string }) => e.url === 'http://127.0.0.1:9/x')).toEqual([]);
  });

  it('lets a voice key place and read calls and read the centers catalog', async () => {
    const call = await request(t.app).post('/api/v1/calls/external-questionnaire').set(VOICE).send(validCall());
    expect(call.status).toBe(202);
    expect((await request(t.app).get(`/api/v1/calls/${call.body.callId}`).set(VOICE)).status).toBe(200);
    expect((await request(t.app).get('/api/v1/centers').set(VOICE)).status).toBe(200);
    expect((await request(t.app).get('/api/v1/centers/services').set(VOICE)).status).toBe(200);
  });

  it('lets an operator key (named or bare) reach calls, centers and the operator routes', async () => {
    for (const key of [OPERATOR, BARE_OPERATOR]) {
      expect((await request(t.app).post('/api/v1/calls/external-questionnaire').set(key).send(validCall())).status).toBe(202);
      expect((await request(t.app).get('/api/v1/centers').set(key)).status).toBe(200);
      expect((await request(t.app).get('/api/v1/webhook-endpoints').set(key)).status).toBe(200);
      expect((await request(t.app).get('/api/v1/console/overview').set(key)).status).toBe(200);
      expect((await request(t.app).get('/api/v1/audit-events').set(key)).status).toBe(200);
    }
  });

  it('still answers 401 for a missing or unknown key', async () => {
    expect((await request(t.app).get('/api/v1/centers')).status).toBe(401);
    expect((await request(t.app).get('/api/v1/webhook-endpoints').set('x-api-key', 'nope')).status).toBe(401);
  });

  it('audits a key request under the key name, else its fingerprint, never the key itself', async () => {
    const marks = {
      named: `named-${randomUUID()}`,
      bare: `bare-${randomUUID()}`,
      voice: `voice-${randomUUID()}`,
      refused: `refused-${randomUUID()}`,
    };
    await request(t.app)
      .get('/api/v1/webhook-endpoints')
      .set({ ...OPERATOR, 'x-request-id': marks.named });
    await request(t.app)
      .get('/api/v1/webhook-endpoints')
      .set({ ...BARE_OPERATOR, 'x-request-id': marks.bare });
    await request(t.app)
      .get('/api/v1/centers')
      .set({ ...VOICE, 'x-request-id': marks.voice });
    await request(t.app)
      .get('/api/v1/webhook-endpoints')
      .set({ ...VOICE, 'x-request-id': marks.refused });
    expect(await auditOf(marks.named)).toEqual([{ user_id: 'ops-test', operation: 'GET /api/v1/webhook-endpoints', status: 200 }]);
    expect(await auditOf(marks.bare)).toEqual([
      { user_id: keyFingerprint(TEST_OPERATOR_KEYS[1]), operation: 'GET /api/v1/webhook-endpoints', status: 200 },
    ]);
    expect(await auditOf(marks.voice)).toEqual([
      { user_id: keyFingerprint(TEST_API_KEYS[0]), operation: 'GET /api/v1/centers', status: 200 },
    ]);
    expect(await auditOf(marks.refused)).toEqual([
      { user_id: keyFingerprint(TEST_API_KEYS[0]), operation: 'GET /api/v1/webhook-endpoints', status: 403 },
    ]);
    // SQL: the guarantee is that no stored row names a key itself (searching the API for a key would record it).
    const { rows } = await t.deps.pool.query(`SELECT count(*)::int AS n FROM audit_log WHERE user_id = ANY ($1)`, [
      [TEST_OPERATOR_KEY, ...TEST_API_KEYS],
    ]);
    expect(rows[0].n).toBe(0);
  });

  it('answers Cache-Control: no-store on /v1 and every key route, errors included', async () => {
    const caller = await newCaller();
    const answers = [
      await request(t.app).post('/v1/agent/threads').set(caller.headers).send({}),
      await request(t.app).get(`/v1/agent/threads/${randomUUID()}`).set(caller.headers),
      await request(t.app).post('/v1/agent/threads').send({}),
      await request(t.app).get('/api/v1/centers').set(VOICE),
      await request(t.app).get('/api/v1/webhook-endpoints').set(OPERATOR),
      await request(t.app).get('/api/v1/webhook-endpoints').set(VOICE),
      await request(t.app).get('/api/v1/audit-events').set(OPERATOR),
      await request(t.app).get('/api/v1/console/overview').set(OPERATOR),
    ];
    for (const [i, res] of answers.entries()) expect(res.headers['cache-control'], `answer ${i} (${res.status})`).toBe('no-store');
  });
});

describe('bearer tokens: exp required and bounded by JWT_MAX_AGE_SECONDS', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ env: { JWT_MAX_AGE_SECONDS: '3600' } });
  });
  afterAll(() => t.close());
  const now = () => Math.floor(Date.now() / 1000);
  const withToken = (token: string) =>
    request(t.app)
      .post('/v1/agent/threads')
      .set({ authorization: `Bearer ${token}`, 'x-doctor': 'dr-a' })
      .send({});

  it('refuses a token without exp (401)', async () => {
    const { SignJWT } = await import('jose');
    const { TEST_JWT_SECRET } = await import('../helpers/tokens.js');
    const token = await new SignJWT({ sub: 'u', group_id: 'g' })
      .setProtectedHeader({ alg: 'HS256' })
      .setIssuedAt()
      .sign(new TextEncoder().encode(TEST_JWT_SECRET));
    const res = await withToken(token);
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ success: false, error: 'Unauthorized', details: expect.stringMatching(/exp claim/) });
  });

  it('refuses a token whose exp lies further ahead than JWT_MAX_AGE_SECONDS, accepts one within', async () => {
    const far = await withToken(await tokenFor({ exp: now() + 3600 + 120 }));
    expect(far.status).toBe(401);
    expect(far.body.details).toMatch(/3600/);
    expect((await withToken(await tokenFor({ exp: now() + 3000 }))).status).toBe(201);
  });
});
