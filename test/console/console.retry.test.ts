import { randomUUID } from 'node:crypto';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { envelope, postSigned } from '../helpers/inbound.js';
import { isolatedDatabase } from '../helpers/receiver.js';
import { startTestApp, TEST_API_KEYS, TEST_OPERATOR_KEY, type TestApp } from '../helpers/test-app.js';

const KEY = { 'x-api-key': TEST_OPERATOR_KEY };
const POLL = { timeout: 20_000, interval: 100 };

describe('retry of a failed inbound event, with workers', () => {
  let db: Awaited<ReturnType<typeof isolatedDatabase>>;
  let t: TestApp;
  beforeAll(async () => {
    db = await isolatedDatabase();
    t = await startTestApp({ env: { DATABASE_URL: db.url }, workers: true });
  });
  afterAll(async () => {
    await t?.close();
    await db?.drop();
  });

  it('fails a voice event for a call that does not exist yet, and completes it on retry once the call exists', async () => {
    const callId = randomUUID();
    const evt = envelope('call.transcript', { callId, transcript: 'patient said fine' });
    expect((await postSigned(t.app, 'voice', evt)).status).toBe(202);
    const status = async () => (await request(t.app).get(`/api/v1/webhooks/events/${evt.id}`).set(KEY)).body.status;
    await expect.poll(status, POLL).toBe('failed');
    const failed = (await request(t.app).get('/api/v1/console/pipelines?status=failed').set(KEY)).body;
    expect(failed.map((e: { event_id: string }) => e.event_id)).toContain(evt.id);

    await t.deps.pool.query(
      `INSERT INTO calls (id, questionnaire_id, phone_number, status) VALUES ($1, 'q-1', '+15550100', 'in_progress')`,
      [callId],
    );
    const retry = await request(t.app).post(`/api/v1/webhooks/events/${evt.id}/retry?source=voice`).set(KEY);
    expect(retry.status).toBe(202);
    await expect.poll(status, POLL).toBe('completed');
    const call = await request(t.app).get(`/api/v1/calls/${callId}`).set('x-api-key', TEST_API_KEYS[0]);
    expect(call.status).toBe(200);
    expect(call.body.transcript).toBe('patient said fine');
    expect((await request(t.app).post(`/api/v1/webhooks/events/${evt.id}/retry?source=voice`).set(KEY)).status).toBe(409);
    expect((await request(t.app).post(`/api/v1/webhooks/events/${evt.id}/retry?source=ehr`).set(KEY)).status).toBe(404);
  });
});
