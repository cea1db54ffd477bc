import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deepArrays, deepObjects, expectSpecAnswer, HEADER_SAFE } from '../helpers/chaos-http.js';
import { encounterData, envelope, integrationSignature } from '../helpers/inbound.js';
import { isolatedDatabase } from '../helpers/receiver.js';
import { startTestApp, TEST_OPERATOR_KEY, TEST_EHR_SECRET, TEST_VOICE_SECRET, type TestApp } from '../helpers/test-app.js';
import { newCaller, tokenFor, type Caller } from '../helpers/tokens.js';
import { appRoutes, type AppRoute } from '../openapi/app-routes.js';
import { joinRun, newThread, runBody, VISIT } from '../runs/runs.builders.js';

/**
 * Random and malformed input on every route the app serves (read from its router, as the OpenAPI
 * test does): bodies, headers, path parameters and query strings. Never a 5xx, never a crash,
 * always the spec error body on a 4xx.
 */
const RUNS_PER_ROUTE = Number(process.env.CHAOS_FUZZ_RUNS ?? 60);
let tried = 0;
const statuses = new Map<number, number>();

describe('fuzzing every endpoint', () => {
  let db: Awaited<ReturnType<typeof isolatedDatabase>>;
  let t: TestApp;
  let caller: Caller;
  let routes: AppRoute[];
  const real: Record<string, string[]> = {};

  beforeAll(async () => {
    db = await isolatedDatabase();
    t = await startTestApp({ env: { DATABASE_URL: db.url }, workers: true });
    caller = await newCaller();
    routes = appRoutes(t).filter((r) => r.path !== '/docs'); // a static page
    // Real resources of the caller, so random requests also reach handlers past the 404s.
    const thread = await newThread(t.app, caller);
    const run = await request(t.app)
      .post(`/v1/agent/threads/${thread}/runs`)
      .set(caller.headers)
      .set('x-is-chat', 'false')
      .send(runBody(thread, VISIT));
    const done = await joinRun(t.app, caller, thread, run.body.run_id, 30);
    const tr = await request(t.app)
      .post('/v1/transcriptions/create')
      .set(caller.headers)
      .send({ duration_seconds: 1, original_transcript: VISIT });
    const codify = await request(t.app)
      .post('/v1/codify')
      .set(caller.headers)
      .send({ medical_note: 'Type 2 diabetes mellitus without complications.' });
    const op = { 'x-api-key': TEST_OPERATOR_KEY };
    const call = await request(t.app)
      .post('/api/v1/calls/external-questionnaire')
      .set(op)
      .send({ questionnaireId: 'q-1', phoneNumber: '+14155550100' });
    const ep = await request(t.app).post('/api/v1/webhook-endpoints').set(op).send({ url: 'http://127.0.0.1:9/hook' });
    const integration = await request(t.app)
      .post('/api/v1/integrations')
      .set(op)
      .send({ name: 'fuzz', source: 'ehr', group_ids: [caller.groupId] });
    const voiceIntegration = await request(t.app)
      .post('/api/v1/integrations')
      .set(op)
      .send({ name: 'fuzz', source: 'voice', group_ids: [caller.groupId] });
    real.threadId = [thread];
    real.runId = [run.body.run_id, codify.body.run_id];
    real.id = [done.output.note_id, tr.body.transcription.id, ep.body.id];
    real.callId = [call.body.callId ?? randomUUID()];
    real.integrationId = [integration.body.id];
    real.voiceIntegrationId = [voiceIntegration.body.id];
  }, 120_000);
  afterAll(async () => {
    await t?.close();
    await db?.drop();
    console.info(
      `[chaos] fuzz inputs tried: ${tried}; statuses ${JSON.stringify(Object.fromEntries([...statuses].sort((a, b) => a[0] - b[0])))}`,
    );
  });

  const headerValue = fc.string({ maxLength: 300 }).filter((s) => HEADER_SAFE.test(s));
  const pathValue = fc.oneof(
    fc.uuid(),
    fc.string({ maxLength: 80 }).map(encodeURIComponent),
    fc.constantFrom('%', '%E0%A4%A', '..', '%2e%2e%2f', 'null', 'undefined', '0', '-1', "1' OR '1'='1", '%00', 'a'.repeat(2000)),
  );
  const body = fc.oneof(
    fc.jsonValue({ maxDepth: 6 }).map((v) => JSON.stringify(v)),
    fc.anything({ maxDepth: 4 }).map((v) => {
      try {
        return JSON.stringify(v) ?? 'null';
      } catch {
        return '{"x":1}';
      }
    }),
    fc.string({ maxLength: 200 }), // mostly malformed JSON
    fc.integer({ min: 1, max: 5000 }).map(deepArrays),
    fc.integer({ min: 1, max: 5000 }).map(deepObjects),
    fc
      .record(
        {
          duration_seconds: fc.oneof(fc.double(), fc.string(), fc.constant(null)),
          original_transcript: fc.oneof(fc.string(), fc.integer(), fc.array(fc.string())),
          medical_note: fc.oneof(fc.string({ maxLength: 500 }), fc.integer(), fc.object()),
          template: fc.oneof(fc.constantFrom('SOAP', 'BIRP', 'DAP', 'GIRP', 'soap', ''), fc.string()),
          ai_generated_content: fc.oneof(fc.object(), fc.string(), fc.array(fc.string())),
          input: fc.oneof(fc.object(), fc.record({ messages: fc.array(fc.record({ role: fc.string(), content: fc.anything() })) })),
          config: fc.oneof(
            fc.object(),
            fc.record({ configurable: fc.record({ thread_id: fc.string(), transcription_id: fc.string(), note_id: fc.string() }) }),
          ),
          url: fc.oneof(fc.webUrl(), fc.string()),
          events: fc.oneof(fc.array(fc.string()), fc.string()),
          questionnaireId: fc.oneof(fc.string(), fc.integer()),
          phoneNumber: fc.oneof(fc.string(), fc.constant('+14155550100')),
          pdf_file: fc.oneof(fc.record({ data: fc.base64String({ maxLength: 200 }) }), fc.string()),
          model: fc.oneof(fc.constantFrom('fast', 'balanced', 'high-quality'), fc.string()),
        },
        { requiredKeys: [] },
      )
      .map((v) => JSON.stringify(v)),
  );
  const query = fc.dictionary(
    fc.constantFrom('timeout', 'limit', 'offset', 'cursor', 'wait', 'action', 'status', 'center_id', 'x'),
    fc.oneof(fc.string({ maxLength: 30 }), fc.constantFrom('-1', '601', 'NaN', '1e309', '0', 'true', '[]')),
    { maxKeys: 3 },
  );
  const auth = fc.oneof(
    { arbitrary: fc.constant('valid'), weight: 6 },
    fc.constant('none'),
    headerValue.map((s) => `Bearer ${s}`),
    headerValue,
    fc.constant('Bearer eyJhbGciOiJub25lIn0.eyJzdWIiOiJ4IiwiZ3JvdXBfaWQiOiJ5In0.'),
  );
  const contentType = fc.constantFrom(
    'application/json',
    'application/json',
    'application/json',
    'application/json',
    'text/plain',
    'application/x-www-form-urlencoded',
    'application/json; charset=utf-16',
    'application/json; charset=latin1',
    'multipart/form-data',
    '',
    'application/merge-patch+json',
  );

  async function fire(
    route: AppRoute,
    input: {
      params: string[];
      q: Record<string, string>;
      raw: string;
      auth: string;
      doctor: string | null;
      isChat: string | null;
      ct: string;
      sendBody: boolean;
    },
  ) {
    let i = 0;
    const path = route.path.replace(/\{(\w+)\}/g, (_m, name: string) => {
      const pick = input.params[i++ % input.params.length];
      return pick === 'REAL' ? (real[name] ?? real.id)[0] : pick;
    });
    const qs = new URLSearchParams(input.q).toString();
    let req = request(t.app)
      [route.method as 'get'](`${path}${qs ? `?${qs}` : ''}`)
      .timeout(15_000);
    if (
      route.path.startsWith('/api/v1/') &&
      !route.path.startsWith('/api/v1/webhooks/ehr') &&
      !route.path.startsWith('/api/v1/webhooks/voice')
    ) {
      if (input.auth !== 'none') req = req.set('x-api-key', input.auth === 'valid' ? TEST_OPERATOR_KEY : input.auth);
    } else if (input.auth !== 'none') {
      req = req.set('authorization', input.auth === 'valid' ? caller.headers.authorization : input.auth);
    }
    if (input.doctor !== null) req = req.set('x-doctor', input.doctor);
    if (input.isChat !== null) req = req.set('x-is-chat', input.isChat);
    if (route.path.endsWith('/webhooks/ehr') || route.path.endsWith('/webhooks/voice')) {
      const secret = route.path.endsWith('/ehr') ? TEST_EHR_SECRET : TEST_VOICE_SECRET;
      req = req.set('x-integration-signature', input.auth === 'valid' ? integrationSignature(secret, input.raw) : input.auth.slice(0, 100));
    }
    if (input.sendBody) req = req.set('content-type', input.ct).send(input.raw);
    tried++;
    const res = await req;
    statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
    expectSpecAnswer(res, {
      method: route.method,
      path: path.slice(0, 200),
      body: input.raw.slice(0, 200),
      ct: input.ct,
      auth: input.auth.slice(0, 40),
    });
    return res;
  }

  it('answers every route with a 2xx, 3xx or a 4xx spec body under random input', async () => {
    expect(routes.length).toBeGreaterThan(25);
    for (const route of routes) {
      await fc.assert(
        fc.asyncProperty(
          fc.record({
            params: fc.array(fc.oneof(fc.constant('REAL'), pathValue), { minLength: 1, maxLength: 2 }),
            q: query,
            raw: body,
            auth,
            doctor: fc.oneof({ arbitrary: fc.constant('dr-fuzz'), weight: 3 }, fc.option(headerValue, { nil: null })),
            isChat: fc.option(fc.oneof(fc.constantFrom('true', 'false', 'TRUE', '1', '0', 'yes'), headerValue), { nil: null }),
            ct: contentType,
            sendBody: fc.boolean(),
          }),
          async (input) => {
            await fire(route, input);
          },
        ),
        { numRuns: RUNS_PER_ROUTE, endOnFailure: true },
      );
    }
  }, 240_000);

  it('answers signed inbound webhooks carrying random envelopes with 2xx or a 4xx spec body, and the app stays up', async () => {
    const types = fc.constantFrom(
      'encounter.transcript',
      'center.upserted',
      'center.deleted',
      'service.upserted',
      'service.deleted',
      'call.status',
      'call.answers',
      'call.transcript',
      'unknown.type',
    );
    await fc.assert(
      fc.asyncProperty(
        fc.record({
          source: fc.constantFrom('ehr', 'voice'),
          id: fc.oneof(
            { arbitrary: fc.uuid().map((u) => `evt-fuzz-${u}`), weight: 4 },
            fc.string({ maxLength: 300 }),
            fc.integer(),
            fc.constant(null),
          ),
          type: fc.oneof({ arbitrary: fc.constant('encounter.transcript'), weight: 4 }, { arbitrary: types, weight: 4 }, fc.anything()),
          occurred_at: fc.oneof({ arbitrary: fc.constant(new Date().toISOString()), weight: 4 }, fc.string(), fc.integer()),
          data: fc.oneof(
            fc.object({ maxDepth: 3 }),
            {
              arbitrary: fc
                .record({
                  transcript: fc.string({ minLength: 1, maxLength: 400 }),
                  template: fc.constantFrom('SOAP', 'DAP', 'BIRP', 'GIRP', 'X'),
                })
                .map((o) => encounterData(o)),
              weight: 4,
            },
            fc.anything({ maxDepth: 2 }),
            fc.record({ callId: fc.string(), status: fc.string(), answers: fc.anything(), transcript: fc.anything() }),
          ),
        }),
        async ({ source, ...env }) => {
          const raw = JSON.stringify({ ...envelope('x', {}), ...env, id: env.id === null ? undefined : env.id }) ?? '{}';
          tried++;
          const res = await request(t.app)
            .post(`/api/v1/webhooks/${source}`)
            .set('content-type', 'application/json')
            .set('x-integration-signature', integrationSignature(source === 'ehr' ? TEST_EHR_SECRET : TEST_VOICE_SECRET, raw))
            .send(raw);
          statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
          expectSpecAnswer(res, { source, raw: raw.slice(0, 300) });
        },
      ),
      { numRuns: 200, endOnFailure: true },
    );
    // The workers processed whatever was accepted without stopping the process.
    await new Promise((r) => setTimeout(r, 1_000));
    expect((await request(t.app).get('/api/v1/health')).status).toBe(200);
  }, 120_000);

  it('survives oversized bodies on every body-taking route: 413, never a crash', async () => {
    const big = JSON.stringify({ original_transcript: 'x'.repeat(9 * 1024 * 1024), medical_note: 'y' });
    for (const route of routes.filter((r) => r.method === 'post' || r.method === 'patch')) {
      // An integration posts to its own source's path only.
      const param = (name: string) => (name === 'integrationId' && route.path.includes('/voice/') ? 'voiceIntegrationId' : name);
      const path = route.path.replace(/\{(\w+)\}/g, (_m, name: string) => (real[param(name)] ?? real.id)[0]);
      tried++;
      let req = request(t.app)
        [route.method as 'post'](path)
        .set(caller.headers)
        .set('x-api-key', TEST_OPERATOR_KEY)
        .set('content-type', 'application/json');
      if (route.path.includes('/webhooks/')) req = req.set('x-integration-signature', integrationSignature(TEST_EHR_SECRET, big));
      const res = await req.send(big).catch((err: NodeJS.ErrnoException) => ({ status: 0, err }));
      if ('err' in res) {
        expect(['EPIPE', 'ECONNRESET']).toContain(res.err.code); // the server may close a refused upload early
        continue;
      }
      expectSpecAnswer(res as never, { path });
      expect(res.status).toBe(413);
    }
    expect((await request(t.app).get('/api/v1/health')).status).toBe(200);
  }, 60_000);

  it('keeps a valid token useful after the fuzzing (no state corrupted)', async () => {
    const thread = await newThread(t.app, caller);
    expect(thread).toMatch(/^[0-9a-f-]{36}$/);
    const other = await tokenFor();
    expect(
      (
        await request(t.app)
          .post('/v1/agent/threads')
          .set({ authorization: `Bearer ${other}`, 'x-doctor': 'dr' })
          .send({})
      ).status,
    ).toBe(201);
  });
});
