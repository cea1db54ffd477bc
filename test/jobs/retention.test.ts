import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HOUSEKEEPING_QUEUE } from '../../src/modules/housekeeping/housekeeping.job.js';
import { encounterData, envelope, postSigned } from '../helpers/inbound.js';
import { isolatedDatabase, startReceiver, type Receiver } from '../helpers/receiver.js';
import { startTestApp, TEST_OPERATOR_KEY, type TestApp } from '../helpers/test-app.js';
import { newCaller } from '../helpers/tokens.js';

const operator = { 'x-api-key': TEST_OPERATOR_KEY };
const POLL = { timeout: 30_000, interval: 200 };

describe('data retention: the hourly housekeeping job redacts working copies of PHI after RETENTION_DAYS', () => {
  let t: TestApp;
  let rx: Receiver;
  let db: Awaited<ReturnType<typeof isolatedDatabase>>;
  beforeAll(async () => {
    db = await isolatedDatabase();
    t = await startTestApp({ workers: true, env: { DATABASE_URL: db.url, RETENTION_DAYS: '30' } });
    rx = await startReceiver();
  });
  afterAll(async () => {
    await t?.close();
    await rx?.stop();
    await db?.drop();
  });

  const inbound = async (eventId: string) =>
    // SQL: the guarantee is the retention redaction of the stored data, which the API never shows.
    (
      await t.deps.pool.query(`SELECT data, type, status, group_id, redacted_at, received_at FROM inbound_events WHERE event_id = $1`, [
        eventId,
      ])
    ).rows[0];

  it('redacts inbound bodies and outbox payloads older than 30 days; rows, record and fresh copies stay; replay and retry answer 409', async () => {
    const marker = `PHI-RETAINED-${Date.now()}`;
    const old = encounterData({ transcript: `[doctor] how is the cough?\n[patient] ${marker}, worse at night.` });
    const fresh = encounterData({ transcript: `[doctor] any fever?\n[patient] ${marker}-fresh, none.` });
    const endpoint = (
      await request(t.app)
        .post('/api/v1/webhook-endpoints')
        .set(operator)
        .send({ url: rx.url, events: ['note.ready'] })
    ).body;
    const oldEvent = envelope('encounter.transcript', old);
    const freshEvent = envelope('encounter.transcript', fresh);
    expect((await postSigned(t.app, 'ehr', oldEvent)).status).toBe(202);
    expect((await postSigned(t.app, 'ehr', freshEvent)).status).toBe(202);
    await expect.poll(() => rx.received.filter((r) => r.json.type === 'note.ready').length, POLL).toBe(2);
    const noteId = rx.received.find((r) => r.json.data.event_id === oldEvent.id)!.json.data.note_id as string;

    // 31 days pass for the first encounter's working copies.
    await t.deps.pool.query(`UPDATE inbound_events SET received_at = received_at - interval '31 days' WHERE event_id = $1`, [oldEvent.id]);
    await t.deps.pool.query(`UPDATE outbox SET created_at = created_at - interval '31 days' WHERE group_id = $1`, [old.group_id]);
    const before = await inbound(oldEvent.id);

    // The job itself, through pg-boss, as the hourly schedule runs it.
    await t.deps.boss.send(HOUSEKEEPING_QUEUE, {});
    await expect.poll(async () => (await inbound(oldEvent.id)).redacted_at, POLL).not.toBeNull();

    const after = await inbound(oldEvent.id);
    expect(after).toMatchObject({ data: {}, type: 'encounter.transcript', status: 'completed', group_id: old.group_id });
    expect(after.received_at).toEqual(before.received_at);
    // SQL: retention redaction of the outbox (no read API), the point of this test.
    const outbox = (await t.deps.pool.query(`SELECT type, data, redacted_at FROM outbox WHERE group_id = $1`, [old.group_id])).rows;
    expect(outbox.length).toBeGreaterThan(0);
    for (const o of outbox) expect(o).toMatchObject({ data: {}, redacted_at: expect.any(Date) });
    expect(JSON.stringify(outbox)).not.toContain(marker);

    // The fresh encounter keeps its copies.
    expect((await inbound(freshEvent.id)).data.transcript).toContain(`${marker}-fresh`);
    expect(
      // SQL: retention leaves fresh outbox rows alone (no read API).
      (await t.deps.pool.query(`SELECT count(*)::int AS n FROM outbox WHERE group_id = $1 AND redacted_at IS NULL`, [fresh.group_id]))
        .rows[0].n,
    ).toBeGreaterThan(0);

    // The record stays: the note is still readable by its group.
    const caller = await newCaller(old.group_id);
    expect((await request(t.app).get(`/v1/clinical-notes/${noteId}`).set(caller.headers)).status).toBe(200);

    // The delivery stays in the log, but cannot be replayed: there is nothing left to send.
    const deliveries = (await request(t.app).get(`/api/v1/webhook-endpoints/${endpoint.id}/deliveries`).set(operator)).body as Array<{
      id: string;
      event_id: string;
    }>;
    expect(deliveries).toHaveLength(2);
    // SQL: the old group's outbox ids, to find its redacted delivery (no read API).
    const oldOutboxIds = (await t.deps.pool.query(`SELECT id FROM outbox WHERE group_id = $1`, [old.group_id])).rows.map((r) => r.id);
    const redactedDelivery = deliveries.find((d) => oldOutboxIds.includes(d.event_id))!;
    const replay = await request(t.app).post(`/api/v1/webhook-deliveries/${redactedDelivery.id}/replay`).set(operator);
    expect(replay.status).toBe(409);
    expect(replay.body).toMatchObject({ success: false, error: 'Conflict', details: expect.stringMatching(/redacted/) });
    const freshDelivery = deliveries.find((d) => d.id !== redactedDelivery.id)!;
    expect((await request(t.app).post(`/api/v1/webhook-deliveries/${freshDelivery.id}/replay`).set(operator)).status).toBe(202);

    // A failed event whose body is gone cannot be retried either.
    await t.deps.pool.query(`UPDATE inbound_events SET status = 'failed' WHERE event_id = $1`, [oldEvent.id]);
    const retry = await request(t.app).post(`/api/v1/webhooks/events/${oldEvent.id}/retry`).set(operator);
    expect(retry.status).toBe(409);
    expect(retry.body.details).toMatch(/redacted/);
  });
});
