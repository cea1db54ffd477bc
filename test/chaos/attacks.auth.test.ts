import { createHmac, generateKeyPairSync, randomUUID } from 'node:crypto';
import { SignJWT } from 'jose';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectSpecAnswer } from '../helpers/chaos-http.js';
import { isolatedDatabase } from '../helpers/receiver.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';
import { newCaller, tokenFor } from '../helpers/tokens.js';
import { joinRun, newThread, runBody, VISIT } from '../runs/runs.builders.js';

const b64url = (v: unknown) => Buffer.from(typeof v === 'string' ? v : JSON.stringify(v)).toString('base64url');
const claims = () => ({ sub: `user-${randomUUID()}`, group_id: `group-${randomUUID()}`, exp: Math.floor(Date.now() / 1000) + 3600 });

describe('attacks on authentication and tenancy', () => {
  let db: Awaited<ReturnType<typeof isolatedDatabase>>;
  let t: TestApp;
  let rs: TestApp;
  let publicPem: string;
  let privateKey: ReturnType<typeof generateKeyPairSync>['privateKey'];

  beforeAll(async () => {
    db = await isolatedDatabase();
    t = await startTestApp({ env: { DATABASE_URL: db.url }, workers: true });
    const pair = generateKeyPairSync('rsa', { modulusLength: 2048 });
    privateKey = pair.privateKey;
    publicPem = pair.publicKey.export({ type: 'spki', format: 'pem' }).toString();
    rs = await startTestApp({ env: { DATABASE_URL: db.url, JWT_PUBLIC_KEY: publicPem } });
  }, 60_000);
  afterAll(async () => {
    await rs?.close();
    await t?.close();
    await db?.drop();
  });

  const threadsWith = (app: TestApp, token: string) =>
    request(app.app)
      .post('/v1/agent/threads')
      .set({ authorization: `Bearer ${token}`, 'x-doctor': 'dr-attack' })
      .send({});

  it('refuses alg "none" tokens, with or without a signature part', async () => {
    for (const alg of ['none', 'None', 'NONE', 'nOnE']) {
      for (const sig of ['', 'x', b64url('sig')]) {
        const token = `${b64url({ alg, typ: 'JWT' })}.${b64url(claims())}.${sig}`;
        for (const app of [t, rs]) {
          const res = await threadsWith(app, token);
          expect(res.status).toBe(401);
          expectSpecAnswer(res, { alg, sig });
        }
      }
    }
  });

  it('refuses algorithm confusion: HS256 signed with the RSA public key when RS256 is configured', async () => {
    const forge = (key: string | Buffer) => {
      const head = `${b64url({ alg: 'HS256', typ: 'JWT' })}.${b64url(claims())}`;
      return `${head}.${createHmac('sha256', key).update(head).digest('base64url')}`;
    };
    const der = createPublicKeyDer(publicPem);
    for (const key of [publicPem, publicPem.trim(), der]) {
      const res = await threadsWith(rs, forge(key));
      expect(res.status).toBe(401);
      expect(res.body.details).toMatch(/algorithm|signature|malformed/i);
    }
    // Other algorithms than the configured one, and the HS256 test secret, are refused too.
    expect((await threadsWith(rs, await tokenFor())).status).toBe(401);
    const rs512 = await new SignJWT(claims()).setProtectedHeader({ alg: 'RS512' }).sign(privateKey);
    expect((await threadsWith(rs, rs512)).status).toBe(401);
    // The configured algorithm with the right key works: the refusals above are not a broken setup.
    const good = await new SignJWT(claims()).setProtectedHeader({ alg: 'RS256' }).sign(privateKey);
    expect((await threadsWith(rs, good)).status).toBe(201);
    // And an RS256 token on the HS256 deployment is refused.
    expect((await threadsWith(t, good)).status).toBe(401);
  });

  it('refuses expired, not-yet-valid, unsigned-claim and tampered tokens', async () => {
    const now = Math.floor(Date.now() / 1000);
    const expired = await tokenFor({ exp: now - 10 });
    const res = await threadsWith(t, expired);
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ success: false, error: 'Unauthorized', details: 'Token has expired' });
    expect((await threadsWith(t, await tokenFor({ nbf: now + 3600 }))).status).toBe(401);
    expect((await threadsWith(t, await tokenFor({ group_id: undefined }))).status).toBe(401);
    expect((await threadsWith(t, await tokenFor({ sub: undefined }))).status).toBe(401);
    expect((await threadsWith(t, await tokenFor({ group_id: 42 as unknown as string }))).status).toBe(401);
    // A valid token whose payload is swapped for another group's keeps its old signature: refused.
    const valid = await tokenFor();
    const [h, , s] = valid.split('.');
    expect((await threadsWith(t, `${h}.${b64url(claims())}.${s}`)).status).toBe(401);
    expect((await threadsWith(t, `${valid}x`)).status).toBe(401);
    expect((await threadsWith(t, valid.split('.').slice(0, 2).join('.'))).status).toBe(401);
  });

  it('answers 404 to another group on every resource type, and changes nothing', async () => {
    const owner = await newCaller();
    const intruder = await newCaller();
    const tr = await request(t.app)
      .post('/v1/transcriptions/create')
      .set(owner.headers)
      .send({ duration_seconds: 5, original_transcript: VISIT });
    const thread = await newThread(t.app, owner);
    const run = await request(t.app)
      .post(`/v1/agent/threads/${thread}/runs`)
      .set(owner.headers)
      .set('x-is-chat', 'false')
      .send(runBody(thread, VISIT));
    const done = await joinRun(t.app, owner, thread, run.body.run_id, 30);
    const noteId = done.output.note_id as string;
    const codify = await request(t.app).post('/v1/codify').set(owner.headers).send({ medical_note: 'Essential hypertension.' });
    expect([tr.status, run.status, codify.status]).toEqual([201, 201, 200]);

    const attempts: Array<[string, string, object?]> = [
      ['get', `/v1/transcriptions/${tr.body.transcription.id}`],
      ['get', `/v1/agent/threads/${thread}`],
      ['get', `/v1/agent/threads/${thread}/runs`],
      ['post', `/v1/agent/threads/${thread}/runs`, runBody(thread, 'leak the visit')],
      ['post', `/v1/agent/threads/${thread}/runs/stream`, runBody(thread, 'leak the visit')],
      ['get', `/v1/agent/threads/${thread}/runs/${run.body.run_id}`],
      ['get', `/v1/agent/threads/${thread}/runs/${run.body.run_id}/join?timeout=1`],
      ['get', `/v1/agent/threads/${thread}/runs/${run.body.run_id}/stream`],
      ['post', `/v1/agent/threads/${thread}/runs/${run.body.run_id}/cancel`],
      ['get', `/v1/clinical-notes/${noteId}`],
      ['patch', `/v1/clinical-notes/${noteId}`, { feedback: 'overwritten' }],
      ['get', `/v1/clinical-notes/${noteId}/versions`],
      ['get', `/v1/clinical-notes/${noteId}/fhir`],
      ['get', `/v1/codify/${codify.body.run_id}`],
    ];
    for (const [method, path, body] of attempts) {
      let req = request(t.app)[method as 'get'](path).set(intruder.headers);
      if (body) req = req.send(body);
      const res = await req;
      expect({ path, status: res.status }).toEqual({ path, status: 404 });
      expectSpecAnswer(res, { path });
      expect(JSON.stringify(res.body)).not.toMatch(/pharyngitis|sore throat/i);
    }
    // Extraction naming the owner's transcription or note from the intruder's own thread: 404 too.
    const own = await newThread(t.app, intruder);
    for (const configurable of [{ transcription_id: tr.body.transcription.id }, { note_id: noteId }]) {
      const res = await request(t.app)
        .post(`/v1/agent/threads/${own}/runs`)
        .set(intruder.headers)
        .set('x-is-chat', 'false')
        .send(runBody(own, 'x', configurable));
      if (res.status === 201) {
        const ended = await joinRun(t.app, intruder, own, res.body.run_id, 30);
        expect(ended.status).toBe('failed');
      } else {
        expect(res.status).toBe(404);
      }
    }
    const note = await request(t.app).get(`/v1/clinical-notes/${noteId}`).set(owner.headers);
    expect(note.body.feedback ?? null).not.toBe('overwritten');
    const runs = await request(t.app).get(`/v1/agent/threads/${thread}/runs`).set(owner.headers);
    expect(runs.body).toHaveLength(1);
    expect(runs.body[0].status).toBe('completed');
  }, 60_000);
});

function createPublicKeyDer(pem: string): Buffer {
  return Buffer.from(pem.replace(/-----[^-]+-----/g, '').replace(/\s+/g, ''), 'base64');
}
