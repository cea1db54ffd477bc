import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newCaller } from '../helpers/tokens.js';
import { codify, startCodifyApp, type CodifyApp } from '../helpers/codify-app.js';

const LIMIT = 3;

describe('codify rate limit shared by two processes', () => {
  let a: CodifyApp;
  let b: CodifyApp;
  beforeAll(async () => {
    a = await startCodifyApp('codify_rate', { env: { CODIFY_RATE_LIMIT: String(LIMIT) } });
    // A second app instance on the same database, without a worker: its jobs run in a's worker.
    b = await startCodifyApp('codify_rate', { env: { CODIFY_RATE_LIMIT: String(LIMIT) }, db: a.db, worker: false });
    // Windows are aligned on the database clock: start well inside one so the test cannot straddle two.
    // SQL: the database's clock, which aligns the windows (no state is read).
    const { rows } = await a.deps.pool.query(`SELECT 60 - extract(epoch FROM now())::numeric % 60 AS left`);
    if (Number(rows[0].left) < 10) await new Promise((r) => setTimeout(r, Number(rows[0].left) * 1000 + 200));
  });
  afterAll(async () => {
    await b.close();
    await a.close();
  });

  it('counts requests of one doctor across both instances and answers 429 with Retry-After', async () => {
    const caller = await newCaller();
    expect((await codify(a, caller, { medical_note: 'HTN' })).status).toBe(200);
    expect((await codify(b, caller, { medical_note: 'HTN' })).status).toBe(200);
    expect((await codify(a, caller, { medical_note: 'HTN' })).status).toBe(200);
    const limited = await codify(b, caller, { medical_note: 'HTN' });
    expect(limited.status).toBe(429);
    expect(limited.body).toEqual({ success: false, error: 'Too Many Requests', details: expect.stringMatching(/rate limit/i) });
    const retryAfter = Number(limited.headers['retry-after']);
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect((await codify(a, caller, { medical_note: 'HTN' })).status).toBe(429);
  });

  it('keys by group and user (sub): another user of the group, and the same doctor name in another group, are not limited', async () => {
    const caller = await newCaller();
    for (let i = 0; i < LIMIT; i++) expect((await codify(i % 2 ? a : b, caller, { medical_note: 'HTN' })).status).toBe(200);
    expect((await codify(a, caller, { medical_note: 'HTN' })).status).toBe(429);
    // Until 2026-11-24 the key was x-doctor, which the caller chooses: a colleague is now another user (sub).
    const colleague = await newCaller(caller.groupId);
    expect((await codify(a, colleague, { medical_note: 'HTN' })).status).toBe(200);
    const elsewhere = await newCaller();
    const sameName = { ...elsewhere, headers: { ...elsewhere.headers, 'x-doctor': caller.doctor } };
    expect((await codify(b, sameName, { medical_note: 'HTN' })).status).toBe(200);
  });

  it("does not reset for the same user rotating x-doctor (the header is the caller's choice)", async () => {
    const caller = await newCaller();
    for (let i = 0; i < LIMIT; i++) expect((await codify(a, caller, { medical_note: 'HTN' })).status).toBe(200);
    for (const doctor of ['dr-rotated-1', 'dr-rotated-2']) {
      const rotated = { ...caller, headers: { ...caller.headers, 'x-doctor': doctor } };
      expect((await codify(b, rotated, { medical_note: 'HTN' })).status, doctor).toBe(429);
    }
  });

  it('checks authentication first: no token is 401, not counted', async () => {
    const res = await request(a.app).post('/v1/codify').send({ medical_note: 'HTN' });
    expect(res.status).toBe(401);
  });
});
