import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deepArrays, deepObjects, expectSpecAnswer } from '../helpers/chaos-http.js';
import { encounterData, envelope, integrationSignature } from '../helpers/inbound.js';
import { startTestApp, TEST_EHR_SECRET, TEST_OPERATOR_KEY, type TestApp } from '../helpers/test-app.js';
import { newCaller, type Caller } from '../helpers/tokens.js';

const operator = { 'x-api-key': TEST_OPERATOR_KEY };

describe('request bodies: read only after authentication, at most 64 levels deep, webhook paths in any case', () => {
  let t: TestApp;
  let caller: Caller;
  beforeAll(async () => {
    t = await startTestApp();
    caller = await newCaller();
  });
  afterAll(() => t.close());

  it('answers 401 to a caller without a valid credential before reading its body (malformed, deep or large)', async () => {
    const bodies = ['{not json', deepArrays(100_000), JSON.stringify({ medical_note: 'x'.repeat(2 * 1024 * 1024) })];
    const routes: Array<[string, Record<string, string>]> = [
      ['/v1/codify', {}],
      ['/v1/codify', { authorization: 'Bearer not-a-token', 'x-doctor': 'dr-x' }],
      ['/v1/transcriptions/create', {}],
      ['/api/v1/webhook-endpoints', {}],
      ['/api/v1/webhook-endpoints', { 'x-api-key': 'wrong-key' }],
    ];
    for (const body of bodies) {
      for (const [path, headers] of routes) {
        const res = await request(t.app).post(path).set(headers).set('content-type', 'application/json').send(body);
        expect({ path, len: body.length, status: res.status }).toEqual({ path, len: body.length, status: 401 });
        expectSpecAnswer(res, { path });
      }
    }
  });

  it('still parses the body of an authenticated caller: malformed 400, too large 413', async () => {
    const malformed = await request(t.app)
      .post('/v1/transcriptions/create')
      .set(caller.headers)
      .set('content-type', 'application/json')
      .send('{not json');
    expect(malformed.status).toBe(400);
    expect(malformed.body.details).toMatch(/Malformed JSON/);
    const large = await request(t.app)
      .post('/api/v1/webhook-endpoints')
      .set(operator)
      .set('content-type', 'application/json')
      .send(JSON.stringify({ url: 'x'.repeat(2 * 1024 * 1024) }));
    expect(large.status).toBe(413);
  });

  it('answers 400 to JSON nested deeper than 64 levels, and accepts 64', async () => {
    const note = (depth: number) => `{"medical_note":"Hypertension.","model":${'['.repeat(depth - 1)}1${']'.repeat(depth - 1)}}`;
    const tooDeep = [deepArrays(65), deepObjects(65), deepArrays(100_000), note(65), `{"a":"[[[[","b":${deepArrays(64)}}`];
    for (const body of tooDeep) {
      for (const [path, headers] of [
        ['/v1/codify', caller.headers],
        ['/v1/clinical-notes', caller.headers],
        ['/api/v1/webhook-endpoints', operator],
      ] as const) {
        const res = await request(t.app).post(path).set(headers).set('content-type', 'application/json').send(body);
        expect({ path, len: body.length, status: res.status }).toEqual({ path, len: body.length, status: 400 });
        expect(res.body.details).toMatch(/nested deeper than 64 levels/);
      }
      const signed = await request(t.app)
        .post('/api/v1/webhooks/ehr')
        .set('content-type', 'application/json')
        .set('x-integration-signature', integrationSignature(TEST_EHR_SECRET, body))
        .send(body);
      expect(signed.status).toBe(400);
      expect(signed.body.details).toMatch(/nested deeper than 64 levels/);
    }
    // 64 levels (brackets inside strings do not count): parsed, then refused by the schema, not by depth.
    for (const body of [note(64), `{"medical_note":"[[[[[[[[[[${'['.repeat(100)}","model":"no-such-model"}`]) {
      const res = await request(t.app).post('/v1/codify').set(caller.headers).set('content-type', 'application/json').send(body);
      expect(res.body.details ?? '').not.toMatch(/nested deeper/);
      expectSpecAnswer(res, { body: body.slice(0, 40) });
    }
  });

  it('verifies a signed webhook posted to its path with a trailing slash or in another letter case', async () => {
    for (const path of ['/api/v1/webhooks/ehr/', '/api/v1/webhooks/EHR', '/API/V1/Webhooks/Ehr/']) {
      const raw = JSON.stringify(envelope('encounter.transcript', encounterData()));
      const res = await request(t.app)
        .post(path)
        .set('content-type', 'application/json')
        .set('x-integration-signature', integrationSignature(TEST_EHR_SECRET, raw))
        .send(raw);
      expect({ path, status: res.status, body: res.body }).toMatchObject({ path, status: 202, body: { received: true } });
      const wrong = await request(t.app)
        .post(path)
        .set('content-type', 'application/json')
        .set('x-integration-signature', `sha256=${'0'.repeat(64)}`)
        .send(raw);
      expect(wrong.status).toBe(401);
    }
  });

  it('gives the codify route its 8 MB limit on every spelling of its path', async () => {
    const body = JSON.stringify({ medical_note: 'Hypertension.', pdf_file: { data: Buffer.alloc(1_500_000, 0x20).toString('base64') } });
    for (const path of ['/v1/codify', '/v1/codify/', '/V1/Codify']) {
      const res = await request(t.app).post(path).set(caller.headers).set('content-type', 'application/json').send(body);
      // Past the body limit (1.5 MB decoded is 2 MB of base64): refused as not a PDF, not as too large.
      expect({ path, status: res.status }).toEqual({ path, status: 422 });
    }
  });
});
