import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { jwtVerify } from 'jose';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../helpers/test-app.js';
import { TEST_JWT_SECRET } from '../helpers/tokens.js';
import { runCli } from './cli-helpers.js';

const key = (secret: string) => new TextEncoder().encode(secret);

describe('clinigate token', { timeout: 60_000 }, () => {
  let t: TestApp;
  let dataDir: string;
  beforeAll(async () => {
    t = await startTestApp();
    dataDir = mkdtempSync(join(tmpdir(), 'clinigate-cli-token-'));
  });
  afterAll(async () => {
    await t.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('mints a token with JWT_SECRET that verifies and that the app accepts', async () => {
    const r = await runCli(['token', '--user', 'cli-user', '--group', 'cli-group', '--ttl', '30m'], {
      JWT_SECRET: TEST_JWT_SECRET,
      DATA_DIR: dataDir,
    });
    expect(r).toMatchObject({ code: 0, stderr: '' });
    const token = r.stdout.trim();
    expect(r.stdout).toBe(`${token}\n`);
    const { payload, protectedHeader } = await jwtVerify(token, key(TEST_JWT_SECRET), { algorithms: ['HS256'] });
    expect(protectedHeader.alg).toBe('HS256');
    expect(payload).toMatchObject({ sub: 'cli-user', group_id: 'cli-group' });
    expect(payload.exp! - payload.iat!).toBe(30 * 60);

    const created = await request(t.app)
      .post('/v1/agent/threads')
      .set({ authorization: `Bearer ${token}`, 'x-doctor': 'dr-cli' })
      .send({});
    expect(created.status).toBe(201);
    const read = await request(t.app)
      .get(`/v1/agent/threads/${created.body.thread_id}`)
      .set({ authorization: `Bearer ${token}`, 'x-doctor': 'dr-cli' });
    expect(read.status).toBe(200);
    // A token of another group does not see the thread: the group claim is the tenant.
    const other = (
      await runCli(['token', '--user', 'cli-user', '--group', 'other-group'], { JWT_SECRET: TEST_JWT_SECRET, DATA_DIR: dataDir })
    ).stdout.trim();
    expect(
      (
        await request(t.app)
          .get(`/v1/agent/threads/${created.body.thread_id}`)
          .set({ authorization: `Bearer ${other}`, 'x-doctor': 'dr-cli' })
      ).status,
    ).toBe(404);
  });

  it('without JWT_SECRET, signs with the development secret the service keeps in DATA_DIR/secrets.json', async () => {
    const r = await runCli(['token', '--user', 'u1', '--group', 'g1'], { DATA_DIR: dataDir });
    expect(r.code).toBe(0);
    const stored = JSON.parse(readFileSync(join(dataDir, 'secrets.json'), 'utf8')) as { JWT_SECRET: string };
    const { payload } = await jwtVerify(r.stdout.trim(), key(stored.JWT_SECRET));
    expect(payload.exp! - payload.iat!).toBe(12 * 3600);
    // The same file on the next call: the same secret.
    const again = await runCli(['token', '--user', 'u2', '--group', 'g1'], { DATA_DIR: dataDir });
    await expect(jwtVerify(again.stdout.trim(), key(stored.JWT_SECRET))).resolves.toBeTruthy();
  });

  it('carries JWT_ISSUER and JWT_AUDIENCE when the service checks them', async () => {
    const r = await runCli(['token', '--user', 'u1', '--group', 'g1'], {
      JWT_SECRET: TEST_JWT_SECRET,
      JWT_ISSUER: 'https://idp.test',
      JWT_AUDIENCE: 'clinigate',
      DATA_DIR: dataDir,
    });
    const { payload } = await jwtVerify(r.stdout.trim(), key(TEST_JWT_SECRET), { issuer: 'https://idp.test', audience: 'clinigate' });
    expect(payload.sub).toBe('u1');
  });

  it('refuses in production and when verification uses a JWKS or a public key; rejects a bad --ttl', async () => {
    const [prod, jwks, publicKey, ttl] = await Promise.all([
      runCli(['token', '--user', 'u', '--group', 'g'], { NODE_ENV: 'production', JWT_SECRET: TEST_JWT_SECRET, DATA_DIR: dataDir }),
      runCli(['token', '--user', 'u', '--group', 'g'], { JWT_JWKS_URL: 'https://idp.test/.well-known/jwks.json', DATA_DIR: dataDir }),
      runCli(['token', '--user', 'u', '--group', 'g'], { JWT_PUBLIC_KEY: '-----BEGIN PUBLIC KEY-----x', DATA_DIR: dataDir }),
      runCli(['token', '--user', 'u', '--group', 'g', '--ttl', 'soon'], { JWT_SECRET: TEST_JWT_SECRET, DATA_DIR: dataDir }),
    ]);
    expect(prod).toMatchObject({ code: 1, stdout: '' });
    expect(prod.stderr.trim()).toBe('error: refusing to mint a token in production: tokens must come from your identity provider');
    expect(jwks).toMatchObject({ code: 1, stdout: '' });
    expect(jwks.stderr.trim()).toMatch(/^error: refusing to mint a token: JWT verification uses a JWKS \(JWT_JWKS_URL\)/);
    expect(publicKey.stderr.trim()).toMatch(/^error: refusing to mint a token: JWT verification uses a public key \(JWT_PUBLIC_KEY\)/);
    expect(ttl).toMatchObject({ code: 2, stdout: '' });
    expect(ttl.stderr.trim()).toBe('error: --ttl "soon" is not a duration (e.g. 30m, 12h, 7d)');
  });
});
