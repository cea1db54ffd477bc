import { randomUUID } from 'node:crypto';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startIsolatedTestApp, TEST_OPERATOR_KEY, type TestApp } from '../helpers/test-app.js';
import { receivers, recordNoteEvent, subscribe as subscribeAsOperator } from './webhooks.builders.js';

const KEY = { 'x-api-key': TEST_OPERATOR_KEY };
const POLL = { timeout: 30_000, interval: 50 };

/** DESIGN "Delivery operations": `ordering: "patient"` and `max_per_second`, through the API and a real receiver. */
describe('outbound order per patient and pacing', () => {
  let t: TestApp;
  const rxs = receivers();
  beforeAll(async () => {
    // Retries after 1 s each: a failing delivery holds its patient for a few seconds.
    t = await startIsolatedTestApp({ env: { WEBHOOK_RETRY_SCHEDULE: '1,1,1' }, workers: true });
  });
  afterAll(async () => {
    await rxs.stopAll();
    await t?.close();
  });

  const receiver = () => rxs.start();
  const subscribe = (body: Record<string, unknown>) => subscribeAsOperator(t.app, body);
  /** A note event about `patient`, recorded as the pipeline records it (in its own transaction). */
  const record = (group: string, patient: string, extra: Record<string, unknown> = {}) =>
    recordNoteEvent(t, group, { patient_id: patient, ...extra });

  /** Records e1 f1 e2 f2 e3 (e: patient P1, f: patient P2); the receiver answers 503 twice to e1. */
  const scenario = async (ordering: 'patient' | 'none') => {
    const rx = await receiver();
    const group = `group-${randomUUID()}`;
    const ep = await subscribe({ url: rx.url, group_id: group, ordering });
    expect(ep.ordering).toBe(ordering);
    const [p1, p2] = [`MRN-${randomUUID()}`, `MRN-${randomUUID()}`];
    rx.respond = (r, same) => (r.json.data.fail_twice && same < 2 ? { status: 503 } : { status: 200 });
    const e1 = await record(group, p1, { fail_twice: true });
    const f1 = await record(group, p2);
    const e2 = await record(group, p1);
    const f2 = await record(group, p2);
    const e3 = await record(group, p1);
    await expect.poll(() => rx.successesById().size, POLL).toBe(5);
    const successes = rx.received.filter((r) => r.answered === 200).map((r) => r.json.id);
    return { rx, e1, e2, e3, f1, f2, successes };
  };

  it('ordering "patient": one patient\'s deliveries go one at a time in record order; a failing one holds only that patient', async () => {
    const { rx, e1, e2, e3, f1, f2, successes } = await scenario('patient');
    // P1's events reached the receiver in record order, e1 three times (503, 503, 200) before e2 was ever sent.
    const p1Requests = rx.received.filter((r) => [e1, e2, e3].includes(r.json.id)).map((r) => `${r.json.id}:${r.answered}`);
    expect(p1Requests).toEqual([`${e1}:503`, `${e1}:503`, `${e1}:200`, `${e2}:200`, `${e3}:200`]);
    // P2 was not held by P1's failing delivery: both of its events were delivered before e1 was.
    expect(successes.indexOf(f1)).toBeLessThan(successes.indexOf(e1));
    expect(successes.indexOf(f2)).toBeLessThan(successes.indexOf(e1));
  }, 60_000);

  it('ordering "patient": a dispatcher that reaches a later event while another still fans out the earlier one keeps the order', async () => {
    const rx = await receiver();
    const group = `group-${randomUUID()}`;
    await subscribe({ url: rx.url, group_id: group, ordering: 'patient' });
    const patient = `MRN-${randomUUID()}`;
    // e1 recorded (without waking the dispatchers), then held as a dispatcher holds the events it
    // fans out: its row locked by a transaction that has not committed yet.
    const e1 = randomUUID();
    await t.deps.pool.query(`INSERT INTO outbox (id, type, group_id, data) VALUES ($1, 'note.updated', $2, $3)`, [
      e1,
      group,
      JSON.stringify({ note_id: randomUUID(), group_id: group, patient_id: patient }),
    ]);
    const other = await t.deps.pool.connect();
    try {
      await other.query('BEGIN');
      await other.query(`SELECT id FROM outbox WHERE id = $1 FOR UPDATE`, [e1]);
      // e2 about the same patient, recorded after e1, while e1 is held.
      const e2 = await recordNoteEvent(t, group, { patient_id: patient });
      await new Promise((r) => setTimeout(r, 1_500));
      await other.query('ROLLBACK');
      await expect.poll(() => rx.successesById().size, POLL).toBe(2);
      expect(rx.received.filter((r) => r.answered === 200).map((r) => r.json.id)).toEqual([e1, e2]);
    } finally {
      other.release();
    }
  }, 60_000);

  it('ordering "none" (the default) sends in parallel: a failing delivery holds nothing', async () => {
    const { e1, e2, e3, successes } = await scenario('none');
    expect(successes.indexOf(e2)).toBeLessThan(successes.indexOf(e1));
    expect(successes.indexOf(e3)).toBeLessThan(successes.indexOf(e1));
    expect((await subscribe({ url: 'http://127.0.0.1:9/x' })).ordering).toBe('none');
  }, 60_000);

  it('max_per_second paces an endpoint: six events at 2 per second take at least 2 s to arrive', async () => {
    const rx = await receiver();
    const group = `group-${randomUUID()}`;
    const ep = await subscribe({ url: rx.url, group_id: group, max_per_second: 2 });
    expect(ep.max_per_second).toBe(2);
    for (let i = 0; i < 6; i++) await record(group, `MRN-${randomUUID()}`);
    await expect.poll(() => rx.received.length, POLL).toBe(6);
    const times = rx.received.map((r) => r.at).sort((a, b) => a - b);
    // Nominally 2.5 s (five gaps of 500 ms, reserved in the database); unpaced, six arrive within a few ms.
    expect(times[5] - times[0]).toBeGreaterThanOrEqual(2_000);
  }, 60_000);

  it('refuses a max_per_second under 1 and an unknown ordering with 400', async () => {
    for (const body of [{ max_per_second: 0 }, { max_per_second: 1.5 }, { ordering: 'visit' }]) {
      const res = await request(t.app)
        .post('/api/v1/webhook-endpoints')
        .set(KEY)
        .send({ url: 'http://127.0.0.1:9/x', ...body });
      expect(res.status).toBe(400);
      expect(res.body.success).toBe(false);
    }
  });
});
