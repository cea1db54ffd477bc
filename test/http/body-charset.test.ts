import type { AddressInfo } from 'node:net';
import { createServer } from 'node:http';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { integrationSignature } from '../helpers/inbound.js';
import { startIsolatedTestApp, TEST_EHR_SECRET, type TestApp } from '../helpers/test-app.js';
import { newCaller, type Caller } from '../helpers/tokens.js';

/** `{"a":[[[...]]]}` nested `depth` deep, as UTF-16LE bytes. */
const deepUtf16 = (depth: number) => Buffer.from(`{"a":${'['.repeat(depth)}${']'.repeat(depth)}}`, 'utf16le');
const UTF16 = 'application/json; charset=utf-16le';

describe('request bodies are UTF-8 only (415 for another charset), on every route', () => {
  let t: TestApp;
  let caller: Caller;
  beforeAll(async () => {
    t = await startIsolatedTestApp();
    caller = await newCaller();
  });
  afterAll(() => t?.close());

  it('a clinical route answers 415 with the spec body to a utf-16le body, shallow or 5,000 deep (no 500)', async () => {
    for (const body of [Buffer.from(JSON.stringify({ duration_seconds: 1, original_transcript: 'hi' }), 'utf16le'), deepUtf16(5_000)]) {
      const res = await request(t.app).post('/v1/transcriptions/create').set(caller.headers).set('content-type', UTF16).send(body);
      expect(res.status).toBe(415);
      expect(res.body).toEqual({ success: false, error: 'Unsupported Media Type', details: expect.stringMatching(/UTF-8/) });
    }
    // charset=utf-8 (any spelling) and no charset still work.
    for (const type of ['application/json; charset=UTF-8', 'application/json;charset="utf-8"', 'application/json']) {
      const ok = await request(t.app)
        .post('/v1/transcriptions/create')
        .set(caller.headers)
        .set('content-type', type)
        .send(JSON.stringify({ duration_seconds: 1, original_transcript: 'hi' }));
      expect(ok.status, type).toBe(201);
    }
  });

  it('the directly answered signed webhook answers 415 to a correctly signed utf-16le body, 1,500 and 5,000 deep alike, and stores nothing', async () => {
    const server = createServer(t.app).listen(0, '127.0.0.1');
    await new Promise((r) => server.once('listening', r));
    const { port } = server.address() as AddressInfo;
    try {
      for (const body of [deepUtf16(1_500), deepUtf16(5_000)]) {
        // The exact bytes, as a sender would post them (fetch sends a Uint8Array untouched).
        const res = await fetch(`http://127.0.0.1:${port}/api/v1/webhooks/ehr`, {
          method: 'POST',
          headers: { 'content-type': UTF16, 'x-integration-signature': integrationSignature(TEST_EHR_SECRET, body) },
          body: new Uint8Array(body),
        });
        expect(res.status).toBe(415);
        expect(await res.json()).toMatchObject({ success: false, error: 'Unsupported Media Type' });
      }
    } finally {
      await new Promise((r) => server.close(r));
    }
  });
});
