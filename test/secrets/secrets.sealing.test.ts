import { createCipheriv, randomBytes, randomUUID } from 'node:crypto';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { keyId } from '../../src/lib/secret-box.js';
import { runCli } from '../cli/cli-helpers.js';
import { encounterData, envelope, integrationSignature } from '../helpers/inbound.js';
import { isolatedDatabase } from '../helpers/isolated-database.js';
import { startTestApp, TEST_ENCRYPTION_KEY, TEST_OPERATOR_KEY, type TestApp } from '../helpers/test-app.js';

const OPERATOR = { 'x-api-key': TEST_OPERATOR_KEY };
const NEW_KEY = randomBytes(32).toString('hex');

/** The first sealed form (2026-11-24): enc:v1: + base64(iv | tag | ciphertext), no key id, no place. */
function sealV1(value: string, key: Buffer): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  const body = Buffer.concat([cipher.update(value, 'utf8'), cipher.final()]);
  return 'enc:v1:' + Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64');
}

describe('stored secrets: key id, bound to their row, rotation', () => {
  let db: Awaited<ReturnType<typeof isolatedDatabase>>;
  let t: TestApp;
  beforeAll(async () => {
    db = await isolatedDatabase();
    t = await startTestApp({ env: { DATABASE_URL: db.url } });
  });
  afterAll(async () => {
    await t?.close();
    await db?.drop();
  });

  const integration = async (app: TestApp, group: string) => {
    const res = await request(app.app)
      .post('/api/v1/integrations')
      .set(OPERATOR)
      .send({ name: 'feed', source: 'ehr', group_ids: [group] });
    expect(res.status).toBe(201);
    return res.body as { id: string; secret: string };
  };
  const post = (app: TestApp, id: string, secret: string, group: string) => {
    const raw = JSON.stringify(envelope('encounter.transcript', encounterData({ group_id: group })));
    return request(app.app)
      .post(`/api/v1/webhooks/ehr/${id}`)
      .set('content-type', 'application/json')
      .set('x-integration-signature', integrationSignature(secret, raw))
      .send(raw);
  };
  const storedSecret = async (id: string) =>
    // SQL: the guarantee is how the secret is sealed at rest (the API never shows it).
    (await t.deps.pool.query<{ secret: string }>(`SELECT secret FROM integrations WHERE id = $1`, [id])).rows[0].secret;

  it('seals with the key id, and a sealed value moved to another row opens nowhere (401, not its secret)', async () => {
    const group = `group-${randomUUID()}`;
    const a = await integration(t, group);
    const b = await integration(t, group);
    expect(await storedSecret(a.id)).toMatch(new RegExp(`^enc:v2:${keyId(Buffer.from(TEST_ENCRYPTION_KEY, 'base64'))}:`));
    expect((await post(t, a.id, a.secret, group)).status).toBe(202);
    // Someone with SQL access copies a's sealed secret over b's: b does not take a's secret.
    await t.deps.pool.query(`UPDATE integrations SET secret = $2 WHERE id = $1`, [b.id, await storedSecret(a.id)]);
    const moved = await post(t, b.id, a.secret, group);
    expect(moved.status).toBe(401);
    expect(moved.body).toMatchObject({ success: false, error: 'Unauthorized' });
    expect((await request(t.app).delete(`/api/v1/integrations/${b.id}`).set(OPERATOR)).status).toBe(204);
  });

  it('reads values stored in the first sealed form and in plain text, and re-seals them at the next start', async () => {
    const group = `group-${randomUUID()}`;
    const v1 = await integration(t, group);
    const plain = await integration(t, group);
    await t.deps.pool.query(`UPDATE integrations SET secret = $2 WHERE id = $1`, [
      v1.id,
      sealV1(v1.secret, Buffer.from(TEST_ENCRYPTION_KEY, 'base64')),
    ]);
    await t.deps.pool.query(`UPDATE integrations SET secret = $2 WHERE id = $1`, [plain.id, plain.secret]);
    expect((await post(t, v1.id, v1.secret, group)).status).toBe(202);
    expect((await post(t, plain.id, plain.secret, group)).status).toBe(202);
    const again = await startTestApp({ env: { DATABASE_URL: db.url } });
    try {
      expect(await storedSecret(v1.id)).toMatch(/^enc:v2:/);
      expect(await storedSecret(plain.id)).toMatch(/^enc:v2:/);
      expect((await post(again, v1.id, v1.secret, group)).status).toBe(202);
      expect((await post(again, plain.id, plain.secret, group)).status).toBe(202);
    } finally {
      await again.close();
    }
  });

  it('`clinigate secrets rotate-key` re-seals every stored secret under the new key; the service then runs on the new key alone', async () => {
    const group = `group-${randomUUID()}`;
    const feed = await integration(t, group);
    const endpoint = await request(t.app)
      .post('/api/v1/webhook-endpoints')
      .set(OPERATOR)
      .send({ url: 'http://127.0.0.1:9/x', group_id: group });
    expect(endpoint.status).toBe(201);

    const without = await runCli(['secrets', 'rotate-key'], { DATABASE_URL: db.url, SECRETS_ENCRYPTION_KEY: NEW_KEY });
    expect(without.code).toBe(1);
    expect(without.stderr).toMatch(/open under none of the given keys/);

    const rotated = await runCli(['secrets', 'rotate-key', '--old-key', TEST_ENCRYPTION_KEY], {
      DATABASE_URL: db.url,
      SECRETS_ENCRYPTION_KEY: NEW_KEY,
    });
    expect(rotated.code, rotated.stderr).toBe(0);
    expect(rotated.stdout).toMatch(new RegExp(`Re-sealed \\d+ stored secrets? under key ${keyId(Buffer.from(NEW_KEY, 'hex'))}`));
    // SQL: the guarantee is that no secret is left in clear anywhere.
    const { rows } = await t.deps.pool.query<{ secret: string }>(
      `SELECT secret FROM integrations WHERE secret <> '' UNION ALL SELECT secret FROM webhook_endpoints WHERE secret <> ''`,
    );
    expect(rows.length).toBeGreaterThanOrEqual(2);
    for (const r of rows) expect(r.secret).toMatch(new RegExp(`^enc:v2:${keyId(Buffer.from(NEW_KEY, 'hex'))}:`));

    const onNewKey = await startTestApp({ env: { DATABASE_URL: db.url, SECRETS_ENCRYPTION_KEY: NEW_KEY } });
    try {
      expect((await post(onNewKey, feed.id, feed.secret, group)).status).toBe(202);
    } finally {
      await onNewKey.close();
    }
    // The old key alone no longer opens them.
    const onOldKey = await startTestApp({ env: { DATABASE_URL: db.url } });
    try {
      expect((await post(onOldKey, feed.id, feed.secret, group)).status).toBe(401);
    } finally {
      await onOldKey.close();
    }
  });
});
