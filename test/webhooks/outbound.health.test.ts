import { randomUUID } from 'node:crypto';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isolatedDatabase, startReceiver, type Receiver } from '../helpers/receiver.js';
import { startTestApp, TEST_OPERATOR_KEY, type TestApp } from '../helpers/test-app.js';
import { recordNoteEvent } from './webhooks.builders.js';

const KEY = { 'x-api-key': TEST_OPERATOR_KEY };
const POLL = { timeout: 30_000, interval: 100 };
const ISO_MS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

/**
 * DESIGN "Delivery operations": endpoint health (`ok`, `failing` after WEBHOOK_FAILING_AFTER
 * attempts in a row failed, `disabled`), one endpoint.failing / endpoint.recovered per change to
 * the operator-wide endpoints that subscribe, never one per retry; shown in the API, the console
 * and /metrics.
 */
describe('endpoint health, said once', () => {
  let db: Awaited<ReturnType<typeof isolatedDatabase>>;
  let t: TestApp;
  let monitor: Receiver;
  const receivers: Receiver[] = [];
  beforeAll(async () => {
    db = await isolatedDatabase();
    // Four attempts per delivery, a second apart: two events make eight failed attempts.
    t = await startTestApp({ env: { DATABASE_URL: db.url, WEBHOOK_RETRY_SCHEDULE: '1,1,1', WEBHOOK_FAILING_AFTER: '5' }, workers: true });
    monitor = await startReceiver();
    const res = await request(t.app)
      .post('/api/v1/webhook-endpoints')
      .set(KEY)
      .send({ url: monitor.url, events: ['endpoint.failing', 'endpoint.recovered'] });
    expect(res.status).toBe(201);
  });
  afterAll(async () => {
    await Promise.all([monitor, ...receivers].map((r) => r?.stop()));
    await t?.close();
    await db?.drop();
  });

  const receiver = async () => {
    const r = await startReceiver();
    receivers.push(r);
    return r;
  };
  const record = (group: string) => recordNoteEvent(t, group);
  const alerts = (endpointId: string) =>
    monitor.received.filter((r) => r.json.data.endpoint_id === endpointId).map((r) => ({ type: r.json.type, ...r.json.data }));
  const health = async (endpointId: string) => {
    const res = await request(t.app).get('/api/v1/webhook-endpoints?limit=100').set(KEY);
    return (res.body as Array<{ id: string; health: string; health_since: string }>).find((e) => e.id === endpointId)!;
  };
  const metric = async (endpointId: string) => {
    const res = await request(t.app).get('/metrics');
    const line = res.text.split('\n').find((l) => l.startsWith(`clinigate_endpoint_health{endpoint_id="${endpointId}"}`));
    return line?.split(' ')[1];
  };
  const consoleHealth = async (endpointId: string) => {
    const res = await request(t.app).get('/api/v1/console/endpoints').set(KEY);
    return (res.body as Array<{ id: string; health: string }>).find((e) => e.id === endpointId)?.health;
  };
  const deliveries = async (endpointId: string) =>
    (await request(t.app).get(`/api/v1/webhook-endpoints/${endpointId}/deliveries`).set(KEY)).body as Array<{
      id: string;
      status: string;
      attempt_count: number;
    }>;

  it('turns failing after 5 failed attempts in a row with one endpoint.failing, and recovers with one endpoint.recovered', async () => {
    const rx = await receiver();
    rx.respond = () => ({ status: 503 });
    const group = `group-${randomUUID()}`;
    const ep = (await request(t.app).post('/api/v1/webhook-endpoints').set(KEY).send({ url: rx.url, group_id: group })).body as {
      id: string;
      health: string;
    };
    expect(ep.health).toBe('ok');
    expect(await metric(ep.id)).toBe('1');
    await record(group);
    await record(group);
    // Both deliveries use up their schedule: eight failed attempts, the alert only once.
    await expect.poll(async () => (await deliveries(ep.id)).map((d) => d.status), POLL).toEqual(['dead', 'dead']);
    expect(rx.received).toHaveLength(8);
    await expect.poll(() => alerts(ep.id).length, POLL).toBe(1);
    expect(alerts(ep.id)[0]).toEqual({
      type: 'endpoint.failing',
      endpoint_id: ep.id,
      group_id: group,
      health: 'failing',
      since: expect.stringMatching(ISO_MS),
      last_status: 503,
    });
    // The monitor receives it as an event of no group; the group's own endpoint never does.
    expect(rx.received.some((r) => r.json.type.startsWith('endpoint.'))).toBe(false);
    expect((await health(ep.id)).health).toBe('failing');
    expect(await consoleHealth(ep.id)).toBe('failing');
    expect(await metric(ep.id)).toBe('0');

    rx.respond = () => ({ status: 200 });
    const [dead] = await deliveries(ep.id);
    expect((await request(t.app).post(`/api/v1/webhook-deliveries/${dead.id}/replay`).set(KEY)).status).toBe(202);
    await expect.poll(() => alerts(ep.id).length, POLL).toBe(2);
    expect(alerts(ep.id)[1]).toMatchObject({ type: 'endpoint.recovered', endpoint_id: ep.id, health: 'ok', last_status: 200 });
    expect((await health(ep.id)).health).toBe('ok');
    expect(await metric(ep.id)).toBe('1');
    // More successes change nothing: no further alert.
    await record(group);
    await expect.poll(() => rx.received.filter((r) => r.answered === 200).length, POLL).toBe(2);
    await new Promise((r) => setTimeout(r, 500));
    expect(alerts(ep.id)).toHaveLength(2);
  }, 60_000);

  it('a 410 makes it disabled (one endpoint.failing with health disabled); enabling it again is one endpoint.recovered', async () => {
    const rx = await receiver();
    rx.respond = () => ({ status: 410 });
    const group = `group-${randomUUID()}`;
    const ep = (await request(t.app).post('/api/v1/webhook-endpoints').set(KEY).send({ url: rx.url, group_id: group })).body as {
      id: string;
    };
    await record(group);
    await expect.poll(() => alerts(ep.id).length, POLL).toBe(1);
    expect(alerts(ep.id)[0]).toMatchObject({ type: 'endpoint.failing', health: 'disabled', group_id: group });
    expect((await health(ep.id)).health).toBe('disabled');
    expect(await consoleHealth(ep.id)).toBe('disabled');
    expect(await metric(ep.id)).toBe('-1');
    expect((await request(t.app).post(`/api/v1/webhook-endpoints/${ep.id}/enable`).set(KEY)).body.health).toBe('ok');
    await expect.poll(() => alerts(ep.id).length, POLL).toBe(2);
    expect(alerts(ep.id)[1]).toMatchObject({ type: 'endpoint.recovered', health: 'ok' });
    expect(await metric(ep.id)).toBe('1');
  }, 60_000);
});
