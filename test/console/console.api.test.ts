import { randomUUID } from 'node:crypto';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isolatedDatabase } from '../helpers/receiver.js';
import { startTestApp, TEST_OPERATOR_KEY, type TestApp } from '../helpers/test-app.js';
import { newCaller } from '../helpers/tokens.js';
import { auditRows, PHI, seedActivity, seedDeadDelivery } from './console.builders.js';

const KEY = { 'x-api-key': TEST_OPERATOR_KEY };
const LISTS = ['overview', 'runs', 'codifications', 'pipelines', 'inbound', 'endpoints', 'deliveries/dead', 'calls', 'timeseries', 'notes'];

describe('operations console API', () => {
  let db: Awaited<ReturnType<typeof isolatedDatabase>>;
  let t: TestApp;
  let seeded: Awaited<ReturnType<typeof seedActivity>>;
  beforeAll(async () => {
    db = await isolatedDatabase();
    t = await startTestApp({ env: { DATABASE_URL: db.url } });
    seeded = await seedActivity(t.deps.pool);
  });
  afterAll(async () => {
    await t?.close();
    await db?.drop();
  });
  const get = (path: string) => request(t.app).get(`/api/v1/console/${path}`).set(KEY);

  it('answers 401 without a key or with a wrong one, on every endpoint and action', async () => {
    for (const path of [...LISTS, `runs/${seeded.doneRun}`]) {
      const res = await request(t.app).get(`/api/v1/console/${path}`);
      expect(res.status, path).toBe(401);
      expect(res.body).toMatchObject({ success: false, error: 'Unauthorized' });
      expect((await request(t.app).get(`/api/v1/console/${path}`).set('x-api-key', 'wrong')).status, path).toBe(401);
    }
    for (const path of [
      `/api/v1/console/runs/${seeded.pendingRun}/cancel`,
      `/api/v1/console/endpoints/${randomUUID()}/replay-dead`,
      `/api/v1/webhook-endpoints/${randomUUID()}/enable`,
      `/api/v1/webhooks/events/${seeded.failedSenderId}/retry`,
    ]) {
      expect((await request(t.app).post(path)).status, path).toBe(401);
    }
  });

  it('never shows PHI in a list answer', async () => {
    await seedDeadDelivery(t.deps.pool, 'http://127.0.0.1:9/hook?token=secret-in-query');
    for (const path of LISTS) {
      const res = await get(path);
      expect(res.status, path).toBe(200);
      const text = JSON.stringify(res.body);
      expect(text, path).not.toContain(PHI);
      expect(text, path).not.toContain('secret-in-query');
      expect(text, path).not.toContain('whsec_');
    }
  });

  it('overview: health checks, every queue with depth and oldest waiting job, rows by state', async () => {
    const res = await get('overview');
    expect(res.body).toMatchObject({
      status: 'ok',
      checks: { database: { status: 'ok' }, queue: { status: 'ok' }, engine: { status: 'ok', name: 'local' } },
    });
    const names = res.body.queues.map((q: { queue: string }) => q.queue);
    expect(names).toEqual(expect.arrayContaining(['run-execute', 'inbound-event', 'codify', 'webhook-delivery', 'call-dispatch']));
    expect(res.body.queues[0]).toEqual({
      queue: expect.any(String),
      waiting: expect.any(Number),
      scheduled: expect.any(Number),
      active: expect.any(Number),
      failed_last_hour: expect.any(Number),
      oldest_waiting_seconds: null,
    });
    expect(res.body.states).toEqual(expect.arrayContaining([{ resource: 'runs', status: 'pending', count: expect.any(Number) }]));
  });

  it('lists recent runs, codifications and pipelines with ids, states and durations', async () => {
    const runs = (await get('runs')).body as Array<Record<string, unknown>>;
    const done = runs.find((r) => r.run_id === seeded.doneRun)!;
    expect(done).toMatchObject({ status: 'completed', kind: 'extraction', thread_id: seeded.threadId, duration_ms: expect.any(Number) });
    expect(done.duration_ms as number).toBeGreaterThanOrEqual(1900);
    expect(done).not.toHaveProperty('output');
    expect(runs.find((r) => r.run_id === seeded.pendingRun)).toMatchObject({ status: 'pending', duration_ms: null });
    expect((await get('runs?status=pending')).body.every((r: { status: string }) => r.status === 'pending')).toBe(true);
    expect((await get('runs?limit=0')).status).toBe(400);
    expect((await get('runs?status=nope')).status).toBe(400);

    const codify = (await get('codifications')).body.find((c: { run_id: string }) => c.run_id === seeded.codifyRun);
    expect(codify).toMatchObject({ status: 'completed', model: 'balanced', final_codes: 1, note_bytes: 100 });

    const pipelines = (await get('pipelines')).body as Array<Record<string, unknown>>;
    expect(pipelines.find((p) => p.id === seeded.failedEvent)).toMatchObject({
      event_id: seeded.failedSenderId,
      status: 'failed',
      error: 'Processing Failed',
      pipeline: { transcription_id: seeded.failedTranscription },
      attempts: 5,
    });
  });

  it('counts drafts waiting for signature per group and lists notes with their status and signer', async () => {
    const clinician = await newCaller();
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) {
      const res = await request(t.app)
        .post('/v1/clinical-notes')
        .set(clinician.headers)
        .send({ template: 'DAP', ai_generated_content: { data: PHI, assessment: 'a', plan: 'p' } });
      ids.push(res.body.id);
    }
    expect(
      (await request(t.app).post(`/v1/clinical-notes/${ids[0]}/sign`).set(clinician.headers).set('if-match', '"1"').send({})).status,
    ).toBe(200);
    const res = await get('notes?limit=200');
    expect(res.status).toBe(200);
    expect(res.body.drafts_waiting).toContainEqual({ group_id: clinician.groupId, drafts: 2, oldest_draft_at: expect.any(String) });
    expect(res.body.recent.find((n: { id: string }) => n.id === ids[0])).toMatchObject({
      group_id: clinician.groupId,
      status: 'signed',
      version: 2,
      signed_by: clinician.userId,
      signed_at: expect.any(String),
    });
    const signedOnly = await get('notes?status=signed&limit=200');
    expect(signedOnly.body.recent.every((n: { status: string }) => n.status === 'signed')).toBe(true);
    expect(JSON.stringify(res.body)).not.toContain(PHI);
    expect((await get('notes?status=bogus')).status).toBe(400);
  });

  it('counts inbound events by source and outcome, and calls by status', async () => {
    const inbound = (await get('inbound')).body;
    expect(inbound.by_type).toEqual(
      expect.arrayContaining([
        { source: 'ehr', type: 'encounter.transcript', status: 'failed', last_hour: expect.any(Number), last_day: expect.any(Number) },
      ]),
    );
    expect(inbound.last_hour.ehr.failed).toBeGreaterThanOrEqual(1);
    expect(inbound.last_day.ehr.completed).toBeGreaterThanOrEqual(1);
    const calls = (await get('calls')).body;
    expect(calls.find((c: { status: string }) => c.status === 'completed')).toMatchObject({
      total: expect.any(Number),
      last_day: expect.any(Number),
    });
  });

  it('gives 60 per-minute points over the last hour', async () => {
    const { body } = await get('timeseries');
    expect(body.interval_seconds).toBe(60);
    expect(body.points).toHaveLength(60);
    const last = body.points.at(-1);
    expect(Object.keys(last).sort()).toEqual([
      'deliveries_dead',
      'deliveries_delivered',
      'events_failed',
      'events_received',
      'minute',
      'queue_waiting',
      'runs_created',
      'runs_failed',
    ]);
    const sum = (k: string) => body.points.reduce((a: number, p: Record<string, number>) => a + p[k], 0);
    expect(sum('runs_created')).toBeGreaterThanOrEqual(2);
    expect(sum('events_received')).toBeGreaterThanOrEqual(2);
    expect(sum('events_failed')).toBeGreaterThanOrEqual(1);
    expect(sum('deliveries_dead')).toBeGreaterThanOrEqual(1);
  });

  it('lists endpoints with success rate and last error, and dead deliveries by endpoint', async () => {
    const dead = await seedDeadDelivery(t.deps.pool, 'http://127.0.0.1:9/other');
    const ep = (await get('endpoints')).body.find((e: { id: string }) => e.id === dead.endpointId);
    expect(ep).toMatchObject({
      url: 'http://127.0.0.1:9/other',
      status: 'active',
      dead: 1,
      delivered: 0,
      attempts: 2,
      success_rate: 0,
      last_error: 'HTTP 500',
      last_status_code: 500,
    });
    const list = (await get(`deliveries/dead?endpoint_id=${dead.endpointId}`)).body;
    expect(list).toEqual([
      expect.objectContaining({ id: dead.deliveryId, endpoint_id: dead.endpointId, event_type: 'note.ready', attempt_count: 2 }),
    ]);
    expect((await get('deliveries/dead?endpoint_id=nope')).status).toBe(400);
  });

  it('shows one run or pipeline in full only on request, and audits each view', async () => {
    const run = await get(`runs/${seeded.doneRun}`);
    expect(run.status).toBe(200);
    expect(JSON.stringify(run.body.output)).toContain(PHI);
    const event = await get(`pipelines/${seeded.failedEvent}`);
    expect(event.body.error.details).toContain(PHI);
    expect(event.body).not.toHaveProperty('data');
    expect((await get('runs/not-a-uuid')).status).toBe(404);
    for (const path of ['runs/%00', 'pipelines/%00']) expect((await get(path)).status, path).toBe(404);
    for (const path of [
      '/api/v1/console/runs/%00/cancel',
      '/api/v1/console/endpoints/%00/replay-dead',
      '/api/v1/webhook-endpoints/%00/enable',
      '/api/v1/webhooks/events/%00/retry',
      `/api/v1/webhooks/events/${'x'.repeat(300)}/retry`,
    ]) {
      expect((await request(t.app).post(path).set(KEY)).status, path).toBe(404);
    }
    expect(await auditRows(t.app, seeded.doneRun)).toEqual([{ operation: 'console.view run', status: 200, user_id: 'ops-test' }]);
    expect(await auditRows(t.app, seeded.failedEvent)).toEqual([
      expect.objectContaining({ operation: 'console.view pipeline', status: 200 }),
    ]);
    expect(await auditRows(t.app, 'not-a-uuid')).toEqual([expect.objectContaining({ operation: 'console.view run', status: 404 })]);
  });

  it('cancels a run as an operator (409 once ended), with audit rows', async () => {
    const res = await request(t.app).post(`/api/v1/console/runs/${seeded.pendingRun}/cancel`).set(KEY);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ run_id: seeded.pendingRun, status: 'failed', error: { error: 'Cancelled' } });
    // SQL: the outbox has no read API (its events are only seen delivered, by an endpoint's receiver).
    const { rows } = await t.deps.pool.query(`SELECT type FROM outbox WHERE data->>'run_id' = $1`, [seeded.pendingRun]);
    expect(rows).toEqual([{ type: 'run.failed' }]);
    expect((await request(t.app).post(`/api/v1/console/runs/${seeded.pendingRun}/cancel`).set(KEY)).status).toBe(409);
    expect((await request(t.app).post(`/api/v1/console/runs/${randomUUID()}/cancel`).set(KEY)).status).toBe(404);
    expect((await auditRows(t.app, seeded.pendingRun)).map((r) => [r.operation, r.status])).toEqual([
      ['console.cancel run', 200],
      ['console.cancel run', 409],
    ]);
  });

  it('replays one dead delivery and all dead deliveries of an endpoint, with audit rows', async () => {
    const one = await seedDeadDelivery(t.deps.pool, 'http://127.0.0.1:9/one');
    expect((await request(t.app).post(`/api/v1/webhook-deliveries/${one.deliveryId}/replay`).set(KEY)).status).toBe(202);
    await expect
      .poll(() => auditRows(t.app, one.deliveryId))
      .toEqual([expect.objectContaining({ operation: 'POST /api/v1/webhook-deliveries/:id/replay', status: 202 })]);

    const a = await seedDeadDelivery(t.deps.pool, 'http://127.0.0.1:9/all');
    // a second dead delivery on the same endpoint
    const extra = randomUUID();
    const ev = randomUUID();
    await t.deps.pool.query(`INSERT INTO outbox (id, type, data, dispatched_at) VALUES ($1, 'run.failed', '{}', now())`, [ev]);
    await t.deps.pool.query(
      `INSERT INTO webhook_deliveries (id, endpoint_id, event_id, status, attempt_count) VALUES ($1, $2, $3, 'dead', 3)`,
      [extra, a.endpointId, ev],
    );
    const res = await request(t.app).post(`/api/v1/console/endpoints/${a.endpointId}/replay-dead`).set(KEY);
    expect(res.status).toBe(202);
    expect(res.body).toMatchObject({ endpoint_id: a.endpointId, replayed: 2 });
    expect(res.body.delivery_ids.sort()).toEqual([a.deliveryId, extra].sort());
    // SQL: the delivery log shows the status but not the retry index a replay resets.
    const { rows } = await t.deps.pool.query(`SELECT status, retry_index FROM webhook_deliveries WHERE endpoint_id = $1`, [a.endpointId]);
    expect(rows).toEqual([
      { status: 'pending', retry_index: 0 },
      { status: 'pending', retry_index: 0 },
    ]);
    // SQL: the job rows are pg-boss's; the point is the attempt each replayed delivery is queued with.
    const jobs = await t.deps.pool.query(
      `SELECT data FROM pgboss.job WHERE name = 'webhook-delivery' AND data->>'delivery_id' = ANY ($1)`,
      [[a.deliveryId, extra]],
    );
    expect(jobs.rows.map((j) => j.data).sort((x, y) => x.attempt - y.attempt)).toEqual([
      { delivery_id: a.deliveryId, attempt: 3 },
      { delivery_id: extra, attempt: 4 },
    ]);
    expect((await get(`deliveries/dead?endpoint_id=${a.endpointId}`)).body).toEqual([]);
    expect(await auditRows(t.app, a.endpointId)).toEqual([
      expect.objectContaining({ operation: 'console.replay-dead endpoint', status: 202 }),
    ]);
    expect((await request(t.app).post(`/api/v1/console/endpoints/${randomUUID()}/replay-dead`).set(KEY)).status).toBe(404);
  });

  it('enables a disabled endpoint (replay-dead is 409 until then), with an audit row', async () => {
    const d = await seedDeadDelivery(t.deps.pool, 'http://127.0.0.1:9/gone', 'disabled');
    expect((await request(t.app).post(`/api/v1/console/endpoints/${d.endpointId}/replay-dead`).set(KEY)).status).toBe(409);
    const res = await request(t.app).post(`/api/v1/webhook-endpoints/${d.endpointId}/enable`).set(KEY);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: d.endpointId, status: 'active', disabled_reason: null });
    expect(res.body).not.toHaveProperty('secret');
    expect((await request(t.app).post(`/api/v1/webhook-endpoints/${d.endpointId}/enable`).set(KEY)).body.status).toBe('active');
    expect((await request(t.app).post(`/api/v1/webhook-endpoints/${randomUUID()}/enable`).set(KEY)).status).toBe(404);
    expect((await request(t.app).post('/api/v1/webhook-endpoints/nope/enable').set(KEY)).status).toBe(404);
    await expect
      .poll(async () => (await auditRows(t.app, d.endpointId)).map((r) => [r.operation, r.status]))
      .toEqual([
        ['console.replay-dead endpoint', 409],
        ['POST /api/v1/webhook-endpoints/:id/enable', 200],
        ['POST /api/v1/webhook-endpoints/:id/enable', 200],
      ]);
    expect((await request(t.app).post(`/api/v1/console/endpoints/${d.endpointId}/replay-dead`).set(KEY)).body.replayed).toBe(1);
  });

  it('retries a failed pipeline: back to received with its job queued again; 409 when not failed', async () => {
    const res = await request(t.app).post(`/api/v1/webhooks/events/${seeded.failedSenderId}/retry`).set(KEY);
    expect(res.status).toBe(202);
    expect(res.body).toMatchObject({
      id: seeded.failedSenderId,
      status: 'received',
      error: null,
      processed_at: null,
      pipeline: { transcription_id: seeded.failedTranscription },
    });
    expect(JSON.stringify(res.body)).not.toContain(PHI);
    // SQL: the job row is pg-boss's; the point is that the retry queued the event's job again.
    const jobs = await t.deps.pool.query(`SELECT state FROM pgboss.job WHERE name = 'inbound-event' AND data->>'id' = $1`, [
      seeded.failedEvent,
    ]);
    expect(jobs.rows).toEqual([{ state: 'created' }]);
    expect((await request(t.app).post(`/api/v1/webhooks/events/${seeded.failedSenderId}/retry`).set(KEY)).status).toBe(409);
    expect((await request(t.app).post(`/api/v1/webhooks/events/evt-unknown-${randomUUID()}/retry`).set(KEY)).status).toBe(404);
    await expect
      .poll(async () => (await auditRows(t.app, seeded.failedSenderId)).map((r) => [r.operation, r.status]))
      .toEqual([
        ['POST /api/v1/webhooks/events/:id/retry', 202],
        ['POST /api/v1/webhooks/events/:id/retry', 409],
      ]);
  });

  it('serves the page at /console without a key, with no inline script and a strict CSP', async () => {
    const page = await request(t.app).get('/console/');
    expect(page.status).toBe(200);
    expect(page.headers['content-type']).toMatch(/text\/html/);
    expect(page.headers['content-security-policy']).toMatch(/script-src 'self'/);
    expect(page.text).toContain('<script type="module" src="/console/app.js"></script>');
    expect(page.text).not.toMatch(/<script>/);
    expect((await request(t.app).get('/console')).status).toBe(301);
    for (const file of ['app.js', 'charts.js', 'dialogs.js', 'console.css'])
      expect((await request(t.app).get(`/console/${file}`)).status, file).toBe(200);
    expect((await request(t.app).get('/console/missing.js')).status).toBe(404);
  });
});
