import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, TEST_OPERATOR_KEY, TEST_EHR_SECRET, type TestApp } from '../helpers/test-app.js';
import { encounterData, envelope, integrationSignature, postSigned } from '../helpers/inbound.js';

describe('inbound webhooks: verification and ingest', () => {
  let t: TestApp;
  beforeAll(async () => {
    // Second EHR secret: rotation. No workers: these tests look at what is stored and enqueued.
    t = await startTestApp({ env: { EHR_WEBHOOK_SECRET: `${TEST_EHR_SECRET},previous-ehr-secret` } });
  });
  afterAll(() => t.close());

  // SQL: counting rows shows "stored once" (the events API answers one event per id, so it cannot show a second).
  const storedCount = async (eventId: string) =>
    (await t.deps.pool.query(`SELECT count(*)::int AS n FROM inbound_events WHERE event_id = $1`, [eventId])).rows[0].n;
  // SQL: the job rows are pg-boss's; the point is one job per stored event.
  const jobCount = async (eventId: string) =>
    (
      await t.deps.pool.query(
        `SELECT count(*)::int AS n FROM pgboss.job j JOIN inbound_events e ON j.data->>'id' = e.id::text
          WHERE j.name = 'inbound-event' AND e.event_id = $1`,
        [eventId],
      )
    ).rows[0].n;

  it('accepts a signed event with 202 {received, id} after storing and enqueuing it', async () => {
    const body = envelope('encounter.transcript', encounterData());
    const res = await postSigned(t.app, 'ehr', body);
    expect(res.status).toBe(202);
    expect(res.body).toEqual({ received: true, id: body.id });
    expect(await storedCount(body.id)).toBe(1);
    expect(await jobCount(body.id)).toBe(1);
  });

  it('accepts a signature made with the previous secret (rotation)', async () => {
    const res = await postSigned(t.app, 'ehr', envelope('encounter.transcript', encounterData()), 'previous-ehr-secret');
    expect(res.status).toBe(202);
  });

  it('answers a repeated id with 200 {duplicate: true} and stores it once', async () => {
    const body = envelope('encounter.transcript', encounterData());
    expect((await postSigned(t.app, 'ehr', body)).status).toBe(202);
    const again = await postSigned(t.app, 'ehr', body);
    expect(again.status).toBe(200);
    expect(again.body).toMatchObject({ duplicate: true });
    expect(await storedCount(body.id)).toBe(1);
    expect(await jobCount(body.id)).toBe(1);
  });

  it('stores two copies arriving at the same moment once', async () => {
    const body = envelope('encounter.transcript', encounterData());
    const answers = await Promise.all(Array.from({ length: 8 }, () => postSigned(t.app, 'ehr', body)));
    expect(answers.map((a) => a.status).sort()).toEqual([200, 200, 200, 200, 200, 200, 200, 202]);
    expect(await storedCount(body.id)).toBe(1);
    expect(await jobCount(body.id)).toBe(1);
  });

  it('refuses a missing, malformed or wrong signature with 401 and stores nothing', async () => {
    const body = envelope('encounter.transcript', encounterData());
    const raw = JSON.stringify(body);
    const send = (signature?: string) => {
      const r = request(t.app).post('/api/v1/webhooks/ehr').set('content-type', 'application/json');
      if (signature !== undefined) r.set('x-integration-signature', signature);
      return r.send(raw);
    };
    const good = integrationSignature(TEST_EHR_SECRET, raw);
    for (const signature of [
      undefined,
      'sha256=',
      good.slice(0, -2),
      good.replace('sha256=', 'sha1='),
      integrationSignature('wrong', raw),
    ]) {
      const res = await send(signature);
      expect(res.status).toBe(401);
      expect(res.body).toMatchObject({ success: false, error: 'Unauthorized' });
    }
    expect(await storedCount(body.id)).toBe(0);
  });

  it('checks the exact bytes: a re-serialised body with the same JSON fails', async () => {
    const body = envelope('encounter.transcript', encounterData());
    const signature = integrationSignature(TEST_EHR_SECRET, JSON.stringify(body));
    const res = await request(t.app)
      .post('/api/v1/webhooks/ehr')
      .set('content-type', 'application/json')
      .set('x-integration-signature', signature)
      .send(JSON.stringify(body, null, 2));
    expect(res.status).toBe(401);
  });

  it('refuses a voice-signed event on the EHR route', async () => {
    const res = await postSigned(t.app, 'ehr', envelope('encounter.transcript', encounterData()), 'test-voice-webhook-secret');
    expect(res.status).toBe(401);
  });

  it('answers malformed JSON and a bad envelope with 400', async () => {
    expect((await postSigned(t.app, 'ehr', '{"id": "x",')).status).toBe(400);
    const noId = await postSigned(t.app, 'ehr', { type: 'encounter.transcript', occurred_at: new Date().toISOString(), data: {} });
    expect(noId.status).toBe(400);
    expect(noId.body.details).toMatch(/id is required/);
    const badTime = await postSigned(t.app, 'ehr', { ...envelope('encounter.transcript', encounterData()), occurred_at: 'yesterday' });
    expect(badTime.status).toBe(400);
    expect(badTime.body.details).toMatch(/occurred_at/);
  });

  it('answers an unknown type and data that does not fit with 422', async () => {
    const unknown = await postSigned(t.app, 'ehr', envelope('encounter.unknown', {}));
    expect(unknown.status).toBe(422);
    expect(unknown.body).toMatchObject({ success: false, error: 'Unprocessable Entity' });
    const wrongSource = await postSigned(t.app, 'voice', envelope('encounter.transcript', encounterData()));
    expect(wrongSource.status).toBe(422);
    const noTranscript = await postSigned(t.app, 'ehr', envelope('encounter.transcript', encounterData({ transcript: undefined })));
    expect(noTranscript.status).toBe(422);
    expect(noTranscript.body.details).toMatch(/transcript/);
    const noGroup = await postSigned(t.app, 'ehr', envelope('encounter.transcript', encounterData({ group_id: undefined })));
    expect(noGroup.status).toBe(422);
    const badTemplate = await postSigned(t.app, 'ehr', envelope('encounter.transcript', encounterData({ template: 'XYZ' })));
    expect(badTemplate.status).toBe(422);
  });

  it('answers an oversize body with 413 before looking at the signature', async () => {
    const body = envelope('encounter.transcript', encounterData({ transcript: 'x'.repeat(1024 * 1024) }));
    const res = await postSigned(t.app, 'ehr', body);
    expect(res.status).toBe(413);
    expect(res.body).toMatchObject({ success: false, error: 'Payload Too Large' });
  });

  it('shows an event to operators with X-Api-Key, without its data', async () => {
    const data = encounterData();
    const body = envelope('encounter.transcript', data);
    await postSigned(t.app, 'ehr', body);
    const res = await request(t.app).get(`/api/v1/webhooks/events/${body.id}`).set('x-api-key', TEST_OPERATOR_KEY);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      id: body.id,
      source: 'ehr',
      type: 'encounter.transcript',
      status: 'received',
      group_id: data.group_id,
    });
    expect(JSON.stringify(res.body)).not.toContain(data.transcript as string);
    expect((await request(t.app).get(`/api/v1/webhooks/events/${body.id}`)).status).toBe(401);
    expect((await request(t.app).get('/api/v1/webhooks/events/nope').set('x-api-key', TEST_OPERATOR_KEY)).status).toBe(404);
  });
});
