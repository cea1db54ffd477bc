import { randomUUID } from 'node:crypto';
import request from 'supertest';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { encounterData, envelope, integrationSignature } from '../helpers/inbound.js';
import { startReceiver, type Received, type Receiver } from '../helpers/receiver.js';
import { startIsolatedTestApp, TEST_OPERATOR_KEY, type TestApp } from '../helpers/test-app.js';
import { newCaller } from '../helpers/tokens.js';
import { recordNoteEvent } from './webhooks.builders.js';

const OPERATOR = { 'x-api-key': TEST_OPERATOR_KEY };
const POLL = { timeout: 20_000, interval: 50 };

/** What a subscriber holding only `secret` can verify, with the `standardwebhooks` library. */
const verifies = (secret: string, r: Received) => {
  try {
    new Webhook(secret).verify(r.body, {
      'webhook-id': String(r.headers['webhook-id']),
      'webhook-timestamp': String(r.headers['webhook-timestamp']),
      'webhook-signature': String(r.headers['webhook-signature']),
    });
    return true;
  } catch {
    return false;
  }
};

/** DESIGN "Delivery operations": secrets rotate with overlap, inbound and outbound. */
describe('secret rotation with overlap', () => {
  let t: TestApp;
  let rx: Receiver;
  beforeAll(async () => {
    t = await startIsolatedTestApp({ workers: true });
    rx = await startReceiver();
  });
  afterAll(async () => {
    await rx?.stop();
    await t?.close();
  });

  const record = (group: string) => recordNoteEvent(t, group);
  const delivered = async (group: string) => {
    const id = await record(group);
    await expect.poll(() => rx.forEvent(id).length, POLL).toBe(1);
    return rx.forEvent(id)[0];
  };

  it('signs deliveries with both secrets until the old one expires; a subscriber with only the old, then only the new, verifies', async () => {
    const group = `group-${randomUUID()}`;
    const ep = (await request(t.app).post('/api/v1/webhook-endpoints').set(OPERATOR).send({ url: rx.url, group_id: group })).body as {
      id: string;
      secret: string;
    };
    const before = await delivered(group);
    expect(verifies(ep.secret, before)).toBe(true);

    const rotated = await request(t.app).post(`/api/v1/webhook-endpoints/${ep.id}/rotate-secret`).set(OPERATOR).send({});
    expect(rotated.status).toBe(200);
    expect(rotated.body).toEqual({
      id: ep.id,
      secret: expect.stringMatching(/^whsec_[A-Za-z0-9+/]{43}=$/),
      previous_expires_at: expect.any(String),
    });
    const expiresIn = Date.parse(rotated.body.previous_expires_at) - Date.now();
    expect(expiresIn).toBeGreaterThan(86_000_000);
    expect(expiresIn).toBeLessThanOrEqual(86_400_000);
    expect(JSON.stringify((await request(t.app).get('/api/v1/webhook-endpoints').set(OPERATOR)).body)).not.toContain(rotated.body.secret);

    const during = await delivered(group);
    expect(String(during.headers['webhook-signature']).split(' ')).toHaveLength(2);
    expect(verifies(ep.secret, during)).toBe(true);
    expect(verifies(rotated.body.secret, during)).toBe(true);
    expect(during.headers['x-integration-signature']).toBe(integrationSignature(rotated.body.secret, during.body));

    // Rotating again with no overlap: only the newest signs.
    const now = await request(t.app).post(`/api/v1/webhook-endpoints/${ep.id}/rotate-secret`).set(OPERATOR).send({ expires_in_seconds: 0 });
    expect(now.status).toBe(200);
    const after = await delivered(group);
    expect(String(after.headers['webhook-signature']).split(' ')).toHaveLength(1);
    expect(verifies(now.body.secret, after)).toBe(true);
    expect(verifies(rotated.body.secret, after)).toBe(false);
    expect(verifies(ep.secret, after)).toBe(false);
  }, 60_000);

  it("a group rotates its own endpoint's secret; another group's is 404; a bad body is 400", async () => {
    const [a, b] = [await newCaller(), await newCaller()];
    const ep = (await request(t.app).post('/v1/webhook-endpoints').set(a.headers).send({ url: 'http://127.0.0.1:9/x' })).body as {
      id: string;
    };
    expect((await request(t.app).post(`/v1/webhook-endpoints/${ep.id}/rotate-secret`).set(a.headers).send({})).status).toBe(200);
    expect((await request(t.app).post(`/v1/webhook-endpoints/${ep.id}/rotate-secret`).set(b.headers).send({})).status).toBe(404);
    const bad = await request(t.app).post(`/v1/webhook-endpoints/${ep.id}/rotate-secret`).set(a.headers).send({ expires_in_seconds: -1 });
    expect(bad.status).toBe(400);
    expect(bad.body.success).toBe(false);
    expect((await request(t.app).post(`/api/v1/webhook-endpoints/${randomUUID()}/rotate-secret`).set(OPERATOR).send({})).status).toBe(404);
  });

  it("verifies an integration's posts with the old and the new secret until the old expires", async () => {
    const group = `group-${randomUUID()}`;
    const created = await request(t.app)
      .post('/api/v1/integrations')
      .set(OPERATOR)
      .send({ name: 'EHR R', source: 'ehr', group_ids: [group] });
    expect(created.status).toBe(201);
    const { id, secret: old } = created.body as { id: string; secret: string };
    const post = (secret: string) => {
      const raw = JSON.stringify(envelope('encounter.transcript', encounterData({ group_id: group })));
      return request(t.app)
        .post(`/api/v1/webhooks/ehr/${id}`)
        .set('content-type', 'application/json')
        .set('x-integration-signature', integrationSignature(secret, raw))
        .send(raw);
    };
    expect((await post(old)).status).toBe(202);
    const rotated = await request(t.app).post(`/api/v1/integrations/${id}/rotate-secret`).set(OPERATOR).send({ expires_in_seconds: 3600 });
    expect(rotated.status).toBe(200);
    expect((await post(old)).status).toBe(202);
    expect((await post(rotated.body.secret)).status).toBe(202);
    const again = await request(t.app).post(`/api/v1/integrations/${id}/rotate-secret`).set(OPERATOR).send({ expires_in_seconds: 0 });
    expect((await post(rotated.body.secret)).status).toBe(401);
    expect((await post(old)).status).toBe(401);
    expect((await post(again.body.secret)).status).toBe(202);
  }, 60_000);
});
