import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { capturingLogger } from '../helpers/chaos-logs.js';
import { isolatedDatabase, startReceiver, verifySignatures, type Receiver } from '../helpers/receiver.js';
import { startTestApp, TEST_OPERATOR_KEY, type TestApp } from '../helpers/test-app.js';
import { newCaller } from '../helpers/tokens.js';

describe('without SECRETS_ENCRYPTION_KEY (a production that did not set one)', () => {
  let db: Awaited<ReturnType<typeof isolatedDatabase>>;
  let t: TestApp;
  let rx: Receiver;
  const { logger, lines } = capturingLogger();
  beforeAll(async () => {
    db = await isolatedDatabase();
    t = await startTestApp({ env: { DATABASE_URL: db.url, SECRETS_ENCRYPTION_KEY: '' }, logger, workers: true });
    rx = await startReceiver();
  });
  afterAll(async () => {
    await t?.close();
    await rx?.stop();
    await db?.drop();
  });

  it('says so in one warning line at start-up, stores secrets as before, and deliveries still sign', async () => {
    const warnings = lines.filter((l) => /SECRETS_ENCRYPTION_KEY/.test(l));
    expect(warnings).toHaveLength(1);
    expect(JSON.parse(warnings[0])).toMatchObject({ level: 'warn' });
    const caller = await newCaller();
    const ep = await request(t.app)
      .post('/api/v1/webhook-endpoints')
      .set('x-api-key', TEST_OPERATOR_KEY)
      .send({ url: rx.url, group_id: caller.groupId });
    // SQL: the guarantee is how the secret is stored without an encryption key (in clear, as created).
    expect((await t.deps.pool.query(`SELECT secret FROM webhook_endpoints WHERE id = $1`, [ep.body.id])).rows[0].secret).toBe(
      ep.body.secret,
    );
    await request(t.app).post('/v1/transcriptions/create').set(caller.headers).send({ duration_seconds: 1, original_transcript: 'hello' });
    await expect.poll(() => rx.received.length, { timeout: 20_000 }).toBe(1);
    expect(() => verifySignatures(ep.body.secret, rx.received[0])).not.toThrow();
  });
});
