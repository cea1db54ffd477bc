import { randomUUID } from 'node:crypto';
import { SignJWT } from 'jose';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PHI, seedActivity } from '../console/console.builders.js';
import { encounterData, envelope, integrationSignature } from '../helpers/inbound.js';
import { isolatedDatabase, startReceiver, type Receiver } from '../helpers/receiver.js';
import { startTestApp, TEST_API_KEYS, TEST_OPERATOR_KEY, type TestApp } from '../helpers/test-app.js';
import { newCaller, TEST_JWT_SECRET } from '../helpers/tokens.js';

const VOICE = { 'x-api-key': TEST_API_KEYS[0] };

/** The review's findings on the trust boundary, replayed as attacks: each must now fail. */
describe('attacks on the trust boundary', () => {
  let db: Awaited<ReturnType<typeof isolatedDatabase>>;
  let t: TestApp;
  let rx: Receiver;
  beforeAll(async () => {
    db = await isolatedDatabase();
    t = await startTestApp({ env: { DATABASE_URL: db.url }, workers: true });
    rx = await startReceiver();
  });
  afterAll(async () => {
    await t?.close();
    await rx?.stop();
    await db?.drop();
  });

  it("a voice key cannot read another group's note text in the console, nor subscribe an operator-wide endpoint", async () => {
    const seeded = await seedActivity(t.deps.pool);
    const read = await request(t.app).get(`/api/v1/console/runs/${seeded.doneRun}`).set(VOICE);
    expect(read.status).toBe(403);
    expect(JSON.stringify(read.body)).not.toContain(PHI);
    const sub = await request(t.app).post('/api/v1/webhook-endpoints').set(VOICE).send({ url: rx.url });
    expect(sub.status).toBe(403);
    // Another group's encounter produces events; nothing reaches the would-be subscriber.
    const victim = await newCaller();
    await request(t.app).post('/v1/transcriptions/create').set(victim.headers).send({ duration_seconds: 1, original_transcript: PHI });
    await new Promise((r) => setTimeout(r, 1_500));
    expect(rx.received).toHaveLength(0);
  });

  it("a group cannot subscribe to another group's events with its own token", async () => {
    const [attacker, victim] = [await newCaller(), await newCaller()];
    const sub = await request(t.app).post('/v1/webhook-endpoints').set(attacker.headers).send({ url: rx.url, group_id: victim.groupId });
    expect(sub.status).toBe(403);
    const own = await request(t.app).post('/v1/webhook-endpoints').set(attacker.headers).send({ url: rx.url });
    expect(own.status).toBe(201);
    await request(t.app).post('/v1/transcriptions/create').set(victim.headers).send({ duration_seconds: 1, original_transcript: PHI });
    await new Promise((r) => setTimeout(r, 1_500));
    expect(JSON.stringify(rx.received.map((r) => r.json))).not.toContain(victim.groupId);
  });

  it('an integration cannot write a group it is not bound to by naming it in data.group_id', async () => {
    const bound = `group-${randomUUID()}`;
    const victim = `group-${randomUUID()}`;
    const integration = (
      await request(t.app)
        .post('/api/v1/integrations')
        .set('x-api-key', TEST_OPERATOR_KEY)
        .send({ name: 'ehr', source: 'ehr', group_ids: [bound] })
    ).body;
    const body = JSON.stringify(envelope('encounter.transcript', encounterData({ group_id: victim })));
    const res = await request(t.app)
      .post(`/api/v1/webhooks/ehr/${integration.id}`)
      .set('content-type', 'application/json')
      .set('x-integration-signature', integrationSignature(integration.secret, body))
      .send(body);
    expect(res.status).toBe(403);
    // SQL: "stores nothing" for the victim group: no API lists a group's events (the refused event has no id to GET).
    const { rows } = await t.deps.pool.query(`SELECT count(*)::int AS n FROM inbound_events WHERE group_id = $1`, [victim]);
    expect(rows[0].n).toBe(0);
  });

  it('a token without exp, or one valid for a year, is refused', async () => {
    const key = new TextEncoder().encode(TEST_JWT_SECRET);
    const forever = await new SignJWT({ sub: 'u', group_id: 'g' }).setProtectedHeader({ alg: 'HS256' }).sign(key);
    const year = await new SignJWT({ sub: 'u', group_id: 'g' }).setProtectedHeader({ alg: 'HS256' }).setExpirationTime('365d').sign(key);
    for (const token of [forever, year]) {
      const res = await request(t.app)
        .post('/v1/agent/threads')
        .set({ authorization: `Bearer ${token}`, 'x-doctor': 'dr' })
        .send({});
      expect(res.status).toBe(401);
    }
  });
});
