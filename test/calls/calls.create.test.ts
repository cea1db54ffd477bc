import { randomUUID } from 'node:crypto';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { upsertCenter } from '../../src/modules/centers/index.js';
import { startTestApp, TEST_API_KEYS, type TestApp } from '../helpers/test-app.js';
import { validCall } from './calls.builders.js';

const ISO_MS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const PATH = '/api/v1/calls/external-questionnaire';

describe('POST /api/v1/calls/external-questionnaire', () => {
  let t: TestApp;
  const centerId = `ctr-test-${randomUUID()}`;
  beforeAll(async () => {
    t = await startTestApp();
    await upsertCenter(t.deps.pool, {
      id: centerId,
      name: 'Test Center',
      address: { line: 'Calle Mayor 1', city: 'Madrid', postalCode: '28013', country: 'ES' },
      phone: '+34915550100',
      timezone: 'Europe/Madrid',
    });
  });
  afterAll(() => t.close());

  const post = (body: unknown, headers: Record<string, string> = {}) =>
    request(t.app)
      .post(PATH)
      .set({ 'x-api-key': TEST_API_KEYS[0], ...headers })
      .send(body as object);

  it('answers 202 with the queued call, and GET reads it back', async () => {
    const scheduledAt = new Date(Date.now() + 3_600_000).toISOString();
    const res = await post({
      questionnaireId: 'phq-9',
      phoneNumber: '+34915550142',
      patientId: 'pat-1',
      centerId,
      language: 'es-ES',
      scheduledAt,
      metadata: { campaign: 'follow-up' },
    });
    expect(res.status).toBe(202);
    expect(res.headers.location).toBe(`/api/v1/calls/${res.body.callId}`);
    expect(res.body).toEqual({
      callId: expect.stringMatching(/^[0-9a-f-]{36}$/),
      status: 'queued',
      statusReason: null,
      attempts: 0,
      answers: [],
      transcript: null,
      providerCallId: null,
      questionnaireId: 'phq-9',
      phoneNumber: '+34915550142',
      patientId: 'pat-1',
      centerId,
      language: 'es-ES',
      scheduledAt: new Date(scheduledAt).toISOString(),
      metadata: { campaign: 'follow-up' },
      createdAt: expect.stringMatching(ISO_MS),
      updatedAt: expect.stringMatching(ISO_MS),
      dispatchedAt: null,
      completedAt: null,
    });
    const read = await request(t.app).get(`/api/v1/calls/${res.body.callId}`).set('x-api-key', TEST_API_KEYS[1]);
    expect(read.status).toBe(200);
    expect(read.body).toMatchObject({ ...res.body, updatedAt: expect.stringMatching(ISO_MS) });
  });

  it.each([
    [{ phoneNumber: '+34915550142' }, /questionnaireId is required/],
    [{ questionnaireId: '', phoneNumber: '+34915550142' }, /questionnaireId/],
    [{ questionnaireId: 7, phoneNumber: '+34915550142' }, /questionnaireId/],
    [{ questionnaireId: 'q' }, /phoneNumber is required/],
    [{ questionnaireId: 'q', phoneNumber: '915550142' }, /phoneNumber/],
    [{ questionnaireId: 'q', phoneNumber: '+34 915 55 01 42' }, /phoneNumber/],
    [{ questionnaireId: 'q', phoneNumber: '+1234' }, /phoneNumber/],
    [{ questionnaireId: 'q', phoneNumber: '+34915550142', patientId: 12 }, /patientId/],
    [{ questionnaireId: 'q', phoneNumber: '+34915550142', language: 'not a language!' }, /language/],
    [{ questionnaireId: 'q', phoneNumber: '+34915550142', scheduledAt: 'tomorrow' }, /scheduledAt/],
    [{ questionnaireId: 'q', phoneNumber: '+34915550142', scheduledAt: '2020-01-01T00:00:00Z' }, /scheduledAt: must be in the future/],
    [{ questionnaireId: 'q', phoneNumber: '+34915550142', metadata: 'x' }, /metadata/],
    [{ questionnaireId: 'q', phoneNumber: '+34915550142', metadata: [1] }, /metadata/],
    [{ questionnaireId: 'q', phoneNumber: '+34915550142', metadata: { blob: 'x'.repeat(8200) } }, /metadata: must be at most 8192 bytes/],
    [
      { questionnaireId: 'q', phoneNumber: '+34915550142', centerId: 'ctr-does-not-exist' },
      /centerId: center ctr-does-not-exist does not exist/,
    ],
    [[1], /JSON object/],
  ])('answers 400 naming the field for %j', async (body, details) => {
    const res = await post(body);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ success: false, error: 'Bad Request', details: expect.stringMatching(details) });
  });

  it('answers 401 without a key or with a wrong one; both rotation keys work', async () => {
    const missing = await request(t.app).post(PATH).send(validCall());
    expect(missing.status).toBe(401);
    expect(missing.body).toMatchObject({ success: false, error: 'Unauthorized' });
    expect((await post(validCall(), { 'x-api-key': 'wrong-key' })).status).toBe(401);
    expect((await request(t.app).get(`/api/v1/calls/${randomUUID()}`)).status).toBe(401);
    expect((await post(validCall(), { 'x-api-key': TEST_API_KEYS[0] })).status).toBe(202);
    expect((await post(validCall(), { 'x-api-key': TEST_API_KEYS[1] })).status).toBe(202);
  });

  it('GET answers 404 naming the call for unknown and non-UUID ids', async () => {
    const id = randomUUID();
    const res = await request(t.app).get(`/api/v1/calls/${id}`).set('x-api-key', TEST_API_KEYS[0]);
    expect(res.status).toBe(404);
    expect(res.body.details).toBe(`Call ${id} not found`);
    expect((await request(t.app).get('/api/v1/calls/not-a-uuid').set('x-api-key', TEST_API_KEYS[0])).status).toBe(404);
  });

  describe('Idempotency-Key', () => {
    // SQL: counting rows shows "creates nothing new" (no API lists calls), and the job rows are pg-boss's.
    const countCalls = async (questionnaireId: string) =>
      (await t.deps.pool.query('SELECT count(*)::int AS n FROM calls WHERE questionnaire_id = $1', [questionnaireId])).rows[0].n;
    const jobsFor = async (callId: string) =>
      (await t.deps.pool.query(`SELECT count(*)::int AS n FROM pgboss.job WHERE name = 'call-dispatch' AND data->>'callId' = $1`, [callId]))
        .rows[0].n;

    it('a retried request returns the first answer and creates nothing new', async () => {
      const key = randomUUID();
      const body = validCall({ questionnaireId: `q-${key}`, metadata: { a: 1, b: 2 } });
      const first = await post(body, { 'idempotency-key': key });
      expect(first.status).toBe(202);
      // Same content, other key order: the same request.
      const again = await post(
        { metadata: { b: 2, a: 1 }, phoneNumber: body.phoneNumber, questionnaireId: body.questionnaireId },
        { 'idempotency-key': key },
      );
      expect(again.status).toBe(202);
      expect(again.body).toEqual(first.body);
      expect(again.headers['idempotent-replayed']).toBe('true');
      expect(await countCalls(body.questionnaireId as string)).toBe(1);
      expect(await jobsFor(first.body.callId)).toBe(1);
    });

    it('the same key with a different body is 422; another API key is another scope', async () => {
      const key = randomUUID();
      const q = `q-${key}`;
      expect((await post(validCall({ questionnaireId: q }), { 'idempotency-key': key })).status).toBe(202);
      const changed = await post(validCall({ questionnaireId: q, patientId: 'other' }), { 'idempotency-key': key });
      expect(changed.status).toBe(422);
      expect(changed.body.details).toMatch(/Idempotency-Key/);
      const otherScope = await post(validCall({ questionnaireId: q }), { 'idempotency-key': key, 'x-api-key': TEST_API_KEYS[1] });
      expect(otherScope.status).toBe(202);
      expect(await countCalls(q)).toBe(2);
    });

    it('concurrent duplicates create one call and all get its answer', async () => {
      const key = randomUUID();
      const body = validCall({ questionnaireId: `q-${key}` });
      const answers = await Promise.all(Array.from({ length: 8 }, () => post(body, { 'idempotency-key': key })));
      expect(answers.map((a) => a.status)).toEqual(Array(8).fill(202));
      expect(new Set(answers.map((a) => a.body.callId)).size).toBe(1);
      expect(await countCalls(body.questionnaireId as string)).toBe(1);
      expect(await jobsFor(answers[0].body.callId)).toBe(1);
    });

    it('a request refused by validation stores nothing: the key stays usable', async () => {
      const key = randomUUID();
      expect((await post({ questionnaireId: 'q' }, { 'idempotency-key': key })).status).toBe(400);
      expect((await post(validCall({ questionnaireId: `q-${key}` }), { 'idempotency-key': key })).status).toBe(202);
    });

    it('an empty or over-long key is 400', async () => {
      expect((await post(validCall(), { 'idempotency-key': 'k'.repeat(256) })).status).toBe(400);
    });
  });
});
