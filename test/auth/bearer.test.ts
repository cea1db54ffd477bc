import { generateKeyPairSync } from 'node:crypto';
import { SignJWT, exportJWK, generateKeyPair } from 'jose';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../helpers/test-app.js';
import { TEST_JWT_SECRET, tokenFor } from '../helpers/tokens.js';

const secret = new TextEncoder().encode(TEST_JWT_SECRET);
const b64 = (o: object) => Buffer.from(JSON.stringify(o)).toString('base64url');

describe('bearer authentication (HS256)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  const createThread = (headers: Record<string, string>) =>
    request(t.app)
      .post('/v1/agent/threads')
      .set({ 'x-doctor': 'dr-a', ...headers })
      .send({});

  async function expect401(headers: Record<string, string>, details: RegExp) {
    const res = await createThread(headers);
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ success: false, error: 'Unauthorized', details: expect.stringMatching(details) });
    return res;
  }

  it('accepts a valid token', async () => {
    const res = await createThread({ authorization: `Bearer ${await tokenFor()}` });
    expect(res.status).toBe(201);
  });

  it('refuses a missing header', () => expect401({}, /Missing Authorization/));
  it('refuses a scheme other than Bearer', () => expect401({ authorization: 'Basic dXNlcjpwYXNz' }, /Bearer scheme/));
  it('refuses a malformed token, without echoing it', async () => {
    const res = await expect401({ authorization: 'Bearer not.a.jwt-at-all' }, /malformed/);
    expect(JSON.stringify(res.body)).not.toContain('not.a.jwt');
  });

  it('refuses an expired token', async () => {
    const token = await tokenFor({ exp: Math.floor(Date.now() / 1000) - 60 });
    await expect401({ authorization: `Bearer ${token}` }, /expired/);
  });

  it('refuses a token that is not yet valid', async () => {
    const token = await tokenFor({ nbf: Math.floor(Date.now() / 1000) + 3600 });
    await expect401({ authorization: `Bearer ${token}` }, /not yet valid/);
  });

  it('refuses a token signed with another key', async () => {
    const token = await tokenFor({}, 'another-secret-of-sufficient-length-000');
    await expect401({ authorization: `Bearer ${token}` }, /signature/);
  });

  it('refuses alg: none', async () => {
    const token = `${b64({ alg: 'none', typ: 'JWT' })}.${b64({ sub: 'u', group_id: 'g', exp: 9999999999 })}.`;
    await expect401({ authorization: `Bearer ${token}` }, /algorithm|malformed/);
  });

  it('refuses an RS256 token when HS256 is configured', async () => {
    const { privateKey } = await generateKeyPair('RS256');
    const token = await new SignJWT({ sub: 'u', group_id: 'g' })
      .setProtectedHeader({ alg: 'RS256' })
      .setExpirationTime('1h')
      .sign(privateKey);
    await expect401({ authorization: `Bearer ${token}` }, /algorithm/);
  });

  it('refuses HS384 even with the right secret', async () => {
    const token = await new SignJWT({ sub: 'u', group_id: 'g' }).setProtectedHeader({ alg: 'HS384' }).setExpirationTime('1h').sign(secret);
    await expect401({ authorization: `Bearer ${token}` }, /algorithm/);
  });

  it('requires the sub claim', async () => {
    const token = await new SignJWT({ group_id: 'g' }).setProtectedHeader({ alg: 'HS256' }).setExpirationTime('1h').sign(secret);
    await expect401({ authorization: `Bearer ${token}` }, /sub claim/);
  });

  it('requires the group_id claim', async () => {
    const token = await new SignJWT({}).setProtectedHeader({ alg: 'HS256' }).setSubject('u').setExpirationTime('1h').sign(secret);
    await expect401({ authorization: `Bearer ${token}` }, /group_id claim/);
  });

  it('answers 401 before 400 when both the token and x-doctor are missing', async () => {
    const res = await request(t.app).post('/v1/agent/threads').send({});
    expect(res.status).toBe(401);
  });

  it('requires x-doctor on a clinical operation, naming the header', async () => {
    const res = await request(t.app)
      .post('/v1/agent/threads')
      .set('authorization', `Bearer ${await tokenFor()}`)
      .send({});
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ success: false, error: 'Bad Request', details: expect.stringContaining('x-doctor') });
  });
});

describe('bearer authentication (RS256 public key, issuer and audience)', () => {
  let t: TestApp;
  const { publicKey, privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const pem = publicKey.export({ type: 'spki', format: 'pem' }).toString();
  const sign = (claims: Record<string, unknown>, alg = 'RS256', key: unknown = privateKey) =>
    new SignJWT(claims)
      .setProtectedHeader({ alg })
      .setExpirationTime('1h')
      .sign(key as CryptoKey);

  beforeAll(async () => {
    t = await startTestApp({ env: { JWT_PUBLIC_KEY: pem, JWT_ISSUER: 'https://idp.example', JWT_AUDIENCE: 'clinigate' } });
  });
  afterAll(() => t.close());

  const call = (token: string) =>
    request(t.app)
      .post('/v1/agent/threads')
      .set({ authorization: `Bearer ${token}`, 'x-doctor': 'dr-a' })
      .send({});

  it('accepts an RS256 token with the right issuer and audience', async () => {
    const res = await call(await sign({ sub: 'u', group_id: 'g', iss: 'https://idp.example', aud: 'clinigate' }));
    expect(res.status).toBe(201);
  });

  it('refuses a wrong issuer and a wrong audience', async () => {
    const iss = await call(await sign({ sub: 'u', group_id: 'g', iss: 'https://evil.example', aud: 'clinigate' }));
    expect(iss.status).toBe(401);
    expect(iss.body.details).toMatch(/issuer/);
    const aud = await call(await sign({ sub: 'u', group_id: 'g', iss: 'https://idp.example', aud: 'other' }));
    expect(aud.status).toBe(401);
    expect(aud.body.details).toMatch(/audience/);
  });

  it('refuses HS256 signed with the public key as secret (algorithm confusion)', async () => {
    const token = await sign(
      { sub: 'u', group_id: 'g', iss: 'https://idp.example', aud: 'clinigate' },
      'HS256',
      new TextEncoder().encode(pem),
    );
    const res = await call(token);
    expect(res.status).toBe(401);
    expect(res.body.details).toMatch(/algorithm/);
  });
});

describe('bearer authentication (JWKS URL, ES256)', () => {
  it('verifies a token against keys served by a JWKS endpoint', async () => {
    const { createServer } = await import('node:http');
    const { publicKey, privateKey } = await generateKeyPair('ES256');
    const jwk = { ...(await exportJWK(publicKey)), kid: 'k1', alg: 'ES256', use: 'sig' };
    const server = createServer((_req, res) => res.setHeader('content-type', 'application/json').end(JSON.stringify({ keys: [jwk] })));
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const { port } = server.address() as { port: number };
    const t = await startTestApp({ env: { JWT_JWKS_URL: `http://127.0.0.1:${port}/jwks.json` } });
    try {
      const token = await new SignJWT({ sub: 'u', group_id: 'g' })
        .setProtectedHeader({ alg: 'ES256', kid: 'k1' })
        .setExpirationTime('1h')
        .sign(privateKey);
      const ok = await request(t.app)
        .post('/v1/agent/threads')
        .set({ authorization: `Bearer ${token}`, 'x-doctor': 'd' })
        .send({});
      expect(ok.status).toBe(201);
      const other = await generateKeyPair('ES256');
      const forged = await new SignJWT({ sub: 'u', group_id: 'g' })
        .setProtectedHeader({ alg: 'ES256', kid: 'k1' })
        .setExpirationTime('1h')
        .sign(other.privateKey);
      const bad = await request(t.app)
        .post('/v1/agent/threads')
        .set({ authorization: `Bearer ${forged}`, 'x-doctor': 'd' })
        .send({});
      expect(bad.status).toBe(401);
    } finally {
      await t.close();
      server.close();
    }
  });
});
