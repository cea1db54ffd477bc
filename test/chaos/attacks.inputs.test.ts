import { connect } from 'node:net';
import { createServer, type Server } from 'node:http';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readInboundEvent } from '../helpers/api-reads.js';
import { deepArrays, deepObjects, expectSpecAnswer } from '../helpers/chaos-http.js';
import { encounterData, envelope, integrationSignature, postSigned } from '../helpers/inbound.js';
import { isolatedDatabase } from '../helpers/receiver.js';
import { startTestApp, TEST_OPERATOR_KEY, TEST_EHR_SECRET, type TestApp } from '../helpers/test-app.js';
import { newCaller, type Caller } from '../helpers/tokens.js';
import { joinRun, newThread, runBody } from '../runs/runs.builders.js';

const operator = { 'x-api-key': TEST_OPERATOR_KEY };

/** Classic SQL-injection strings; each must be stored and read back literally. */
const INJECTIONS = [
  "' OR '1'='1",
  "'; DROP TABLE transcriptions; --",
  "Robert'); DROP TABLE clinical_notes;--",
  '" OR ""="',
  '1; SELECT pg_sleep(5); --',
  "' UNION SELECT secret, null FROM webhook_endpoints --",
  '$1 $2 $$ $tag$ \\x00 \\\\',
  "%' AND 1=CAST((SELECT version()) AS int) --",
];

describe('attacks through inputs: webhook replay and truncation, oversized and deep JSON, SQL injection, header injection', () => {
  let db: Awaited<ReturnType<typeof isolatedDatabase>>;
  let t: TestApp;
  let caller: Caller;
  beforeAll(async () => {
    db = await isolatedDatabase();
    t = await startTestApp({ env: { DATABASE_URL: db.url }, workers: true });
    caller = await newCaller();
  }, 60_000);
  afterAll(async () => {
    await t?.close();
    await db?.drop();
  });

  it('processes a replayed inbound event once: 202 then 200 duplicate, one pipeline', async () => {
    const data = encounterData();
    const body = envelope('encounter.transcript', data);
    const raw = JSON.stringify(body);
    const first = await postSigned(t.app, 'ehr', raw);
    expect(first.status).toBe(202);
    const replays = await Promise.all(Array.from({ length: 8 }, () => postSigned(t.app, 'ehr', raw)));
    for (const r of replays) expect({ status: r.status, body: r.body }).toMatchObject({ status: 200, body: { duplicate: true } });
    // The same event re-serialised (other key order, same id) is the same event.
    const reordered = JSON.stringify({ data: body.data, occurred_at: body.occurred_at, type: body.type, id: body.id });
    expect((await postSigned(t.app, 'ehr', reordered)).status).toBe(200);
    await expect
      // Polled every 250 ms: each read is a request in the process that runs the pipeline's workers.
      .poll(async () => (await readInboundEvent(t.app, body.id)).status, { timeout: 30_000, interval: 250 })
      .toBe('completed');
    // SQL: nothing duplicated: no API lists a group's transcriptions or notes, and the outbox has no read API.
    const counts = await t.deps.pool.query(
      `SELECT (SELECT count(*) FROM inbound_events WHERE event_id = $2)::int AS events,
              (SELECT count(*) FROM transcriptions WHERE group_id = $1)::int AS transcriptions,
              (SELECT count(*) FROM clinical_notes WHERE group_id = $1)::int AS notes,
              (SELECT count(*) FROM outbox WHERE type = 'note.ready' AND group_id = $1)::int AS ready`,
      [data.group_id, body.id],
    );
    expect(counts.rows[0]).toEqual({ events: 1, transcriptions: 1, notes: 1, ready: 1 });
  }, 60_000);

  it('refuses truncated or altered signatures and truncated bodies with 401', async () => {
    const raw = JSON.stringify(envelope('encounter.transcript', encounterData()));
    const good = integrationSignature(TEST_EHR_SECRET, raw);
    const hex = good.slice('sha256='.length);
    const cases: Array<[string, string]> = [
      [raw, `sha256=${hex.slice(0, 63)}`],
      [raw, `sha256=${hex.slice(0, 32)}`],
      [raw, 'sha256='],
      [raw, hex],
      [raw, `sha1=${hex}`],
      [raw, `sha256=${hex}00`],
      [raw, `sha256=${hex.slice(0, 63)}${hex[63] === '0' ? '1' : '0'}`],
      [raw, `sha256=${'0'.repeat(64)}`],
      [raw.slice(0, -1), good],
      [raw.slice(0, raw.length / 2), good],
      [`${raw} `, good],
      ['', good],
    ];
    for (const [body, signature] of cases) {
      const res = await request(t.app)
        .post('/api/v1/webhooks/ehr')
        .set('content-type', 'application/json')
        .set('x-integration-signature', signature)
        .send(body);
      expect({ signature: signature.slice(0, 20), len: body.length, status: res.status }).toMatchObject({ status: 401 });
      expectSpecAnswer(res, { signature });
    }
  });

  it('answers 400/413 to oversized and deeply nested JSON, with no stack overflow, and keeps serving', async () => {
    const deep = [deepArrays(100_000), deepObjects(100_000), `{"original_transcript":${deepArrays(100_000)},"duration_seconds":1}`];
    const targets: Array<[string, string]> = [
      ['post', '/v1/transcriptions/create'],
      ['post', '/v1/agent/threads'],
      ['post', '/v1/codify'],
      ['post', '/v1/clinical-notes'],
      ['post', '/api/v1/webhook-endpoints'],
    ];
    for (const body of deep) {
      for (const [method, path] of targets) {
        const res = await request(t.app)
          [method as 'post'](path)
          .set(caller.headers)
          .set(operator)
          .set('content-type', 'application/json')
          .send(body);
        // Thread creation ignores its body (LangGraph clients send metadata): a 201 there is no harm.
        expect(path === '/v1/agent/threads' ? [201, 400, 413] : [400, 413, 422]).toContain(res.status);
        expectSpecAnswer(res, { path, len: body.length });
      }
      const signed = await request(t.app)
        .post('/api/v1/webhooks/ehr')
        .set('content-type', 'application/json')
        .set('x-integration-signature', integrationSignature(TEST_EHR_SECRET, body))
        .send(body);
      expect([400, 413, 422]).toContain(signed.status);
      expectSpecAnswer(signed, { path: 'ehr' });
    }
    // A nested value the parser accepts (depth 3,000) must not overflow anything downstream either.
    const nested = JSON.parse(deepArrays(3_000));
    const note = await request(t.app)
      .post('/v1/clinical-notes')
      .set(caller.headers)
      .send({ template: 'SOAP', ai_generated_content: { subjective: nested, objective: 'o', assessment: 'a', plan: 'p' } });
    expect(note.status).toBe(400);
    const event = envelope('center.upserted', { id: 'c-1', name: 'x', extra: nested });
    expect((await postSigned(t.app, 'ehr', event)).status).toBeLessThan(500);
    const big = await request(t.app)
      .post('/v1/transcriptions/create')
      .set(caller.headers)
      .send({ duration_seconds: 1, original_transcript: 'x'.repeat(2 * 1024 * 1024) });
    expect(big.status).toBe(413);
    expectSpecAnswer(big, 'big');
    expect((await request(t.app).get('/api/v1/health')).status).toBe(200);
  }, 60_000);

  it('stores SQL-injection strings literally in every field, with no error and no leak', async () => {
    for (const s of INJECTIONS) {
      const headers = { ...caller.headers, 'x-doctor': `dr ${s}`.slice(0, 200), 'x-patient': s };
      const tr = await request(t.app).post('/v1/transcriptions/create').set(headers).send({ duration_seconds: 1, original_transcript: s });
      expect(tr.status).toBe(201);
      const back = await request(t.app).get(`/v1/transcriptions/${tr.body.transcription.id}`).set(headers);
      expect(back.body.original_transcript).toBe(s);

      const note = await request(t.app)
        .post('/v1/clinical-notes')
        .set(headers)
        .send({ template: 'SOAP', ai_generated_content: { subjective: s, objective: s, assessment: s, plan: s }, feedback: s });
      expect(note.status).toBe(201);
      const patched = await request(t.app)
        .patch(`/v1/clinical-notes/${note.body.id}`)
        .set(headers)
        .send({ feedback: `${s}!` });
      expect(patched.status).toBe(200);
      expect(patched.body).toMatchObject({ feedback: `${s}!`, ai_generated_content: { subjective: s } });

      const thread = await newThread(t.app, caller);
      const run = await request(t.app).post(`/v1/agent/threads/${thread}/runs`).set(headers).send(runBody(thread, s));
      expect(run.status).toBe(201);
      expect((await joinRun(t.app, caller, thread, run.body.run_id, 30)).status).toBe('completed');
      const msgs = (await request(t.app).get(`/v1/agent/threads/${thread}`).set(caller.headers)).body.messages;
      expect(msgs[0].content).toBe(s);

      const codify = await request(t.app).post('/v1/codify').set(headers).send({ medical_note: s });
      expectSpecAnswer(codify, { s });
      const ep = await request(t.app)
        .post('/api/v1/webhook-endpoints')
        .set(operator)
        .send({ url: 'http://127.0.0.1:9/hook', description: s, group_id: s });
      expect(ep.status).toBe(201);
      expect(ep.body).toMatchObject({ description: s, group_id: s });
      expect(JSON.stringify(ep.body)).not.toMatch(/whsec_.*whsec_/); // only its own secret

      // In paths and query strings: a 404 or 400, never a 500 or a row of someone else.
      for (const path of [
        `/v1/transcriptions/${encodeURIComponent(s)}`,
        `/v1/clinical-notes/${encodeURIComponent(s)}`,
        `/v1/agent/threads/${encodeURIComponent(s)}`,
        `/v1/codify/${encodeURIComponent(s)}`,
      ]) {
        const res = await request(t.app).get(path).set(caller.headers);
        expect(res.status).toBe(404);
        expectSpecAnswer(res, { path });
      }
      for (const path of [
        `/api/v1/webhook-endpoints?limit=${encodeURIComponent(s)}`,
        `/api/v1/centers?cursor=${encodeURIComponent(s)}`,
        `/api/v1/webhooks/events/${encodeURIComponent(s)}`,
        `/api/v1/calls/${encodeURIComponent(s)}`,
      ]) {
        const res = await request(t.app).get(path).set(operator);
        expectSpecAnswer(res, { path });
      }
    }
    // SQL: the guarantee is that the injections dropped no table, which only the catalog shows.
    const tables = await t.deps.pool.query(
      `SELECT count(*)::int AS n FROM information_schema.tables WHERE table_name IN ('transcriptions', 'clinical_notes', 'webhook_endpoints')`,
    );
    expect(tables.rows[0].n).toBe(3);
  }, 120_000);

  it('answers 400 (not 500) to text PostgreSQL cannot store: NUL in any field or path', async () => {
    const nul = 'before\u0000after';
    const res = [
      await request(t.app).post('/v1/transcriptions/create').set(caller.headers).send({ duration_seconds: 1, original_transcript: nul }),
      await request(t.app)
        .post('/v1/clinical-notes')
        .set(caller.headers)
        .send({ template: 'SOAP', ai_generated_content: { subjective: nul, objective: 'o', assessment: 'a', plan: 'p' } }),
      await request(t.app).post('/api/v1/webhook-endpoints').set(operator).send({ url: 'http://127.0.0.1:9/hook', description: nul }),
      await request(t.app).get('/api/v1/webhooks/events/%00').set(operator),
      await request(t.app).post('/api/v1/webhooks/events/%00/retry').set(operator),
      await postSigned(t.app, 'ehr', envelope('encounter.transcript', encounterData({ transcript: nul }))),
    ];
    for (const r of res) {
      expect(r.status).toBeGreaterThanOrEqual(400);
      expectSpecAnswer(r, 'nul');
    }
  });

  describe('header injection', () => {
    let server: Server;
    let port: number;
    beforeAll(async () => {
      server = createServer(t.app).listen(0, '127.0.0.1');
      await new Promise((r) => server.once('listening', r));
      port = (server.address() as { port: number }).port;
    });
    afterAll(() => new Promise<void>((r) => server.close(() => r())));

    const raw = (text: string) =>
      new Promise<string>((resolve) => {
        const socket = connect(port, '127.0.0.1', () => socket.write(text));
        let out = '';
        socket.on('data', (d) => (out += d));
        socket.on('close', () => resolve(out));
        socket.on('error', () => resolve(out));
      });

    it('never splits a response header on CR/LF in x-request-id or x-doctor, and never echoes an unsafe request id', async () => {
      for (const injected of [
        'abc\r\nSet-Cookie: pwned=1',
        'abc\rSet-Cookie: pwned=1',
        'abc\nSet-Cookie: pwned=1',
        'abc%0d%0aSet-Cookie:%20pwned=1',
      ]) {
        const answer = await raw(
          `GET /api/v1/health HTTP/1.1\r\nHost: x\r\nx-request-id: ${injected}\r\nx-doctor: dr ${injected}\r\nConnection: close\r\n\r\n`,
        );
        const head = answer.split('\r\n\r\n')[0];
        expect(head).not.toMatch(/^set-cookie:/im);
        expect(head).toMatch(/^HTTP\/1\.1 (200|400)/);
        const id = /^x-request-id: (.*)$/im.exec(head)?.[1];
        if (id !== undefined) expect(id).toMatch(/^[A-Za-z0-9._:-]{1,128}$/);
      }
      for (const unsafe of ['<script>alert(1)</script>', 'a b', 'x'.repeat(500), 'é', '../../etc', "' OR 1=1"]) {
        const res = await request(t.app).get('/api/v1/health').set('x-request-id', Buffer.from(unsafe, 'utf8').toString('latin1'));
        expect(res.headers['x-request-id']).not.toBe(unsafe);
        expect(res.headers['x-request-id']).toMatch(/^[A-Za-z0-9._:-]{1,128}$/);
      }
      // A clinical call with such an x-doctor answers with the spec body and splits nothing.
      const clinical = await raw(
        `POST /v1/agent/threads HTTP/1.1\r\nHost: x\r\nAuthorization: ${caller.headers.authorization}\r\nx-doctor: dr\rX-Evil: 1\r\nContent-Type: application/json\r\nContent-Length: 2\r\nConnection: close\r\n\r\n{}`,
      );
      expect(clinical.split('\r\n\r\n')[0]).not.toMatch(/^x-evil/im);
      expect(clinical).toMatch(/^HTTP\/1\.1 (201|400)/);
      expect((await request(t.app).get('/api/v1/health')).status).toBe(200);
    });
  });
});
