import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newCaller, type Caller } from '../helpers/tokens.js';
import { codify, startCodifyApp, type CodifyApp } from '../helpers/codify-app.js';

const NOTE_LIMIT = 51_200;
const PDF_LIMIT = 5_242_880;

describe('codify limits and validation', () => {
  let t: CodifyApp;
  let caller: Caller;
  beforeAll(async () => {
    t = await startCodifyApp('codify_limits');
    caller = await newCaller();
  });
  afterAll(() => t.close());

  it('accepts a note of exactly 51,200 UTF-8 bytes', async () => {
    const head = 'Essential hypertension. ';
    const filler = 'Stable today.\n'.repeat(Math.floor((NOTE_LIMIT - head.length) / 14));
    const note = (head + filler).padEnd(NOTE_LIMIT, '.');
    expect(Buffer.byteLength(note)).toBe(NOTE_LIMIT);
    const res = await codify(t, caller, { medical_note: note });
    expect(res.status).toBe(200);
    expect(res.body.final_code_assessments.map((a: { code: string }) => a.code)).toContain('I10');
  });

  it('answers 413 for a note one byte over 50 KB, counting UTF-8 bytes', async () => {
    const res = await codify(t, caller, { medical_note: 'x'.repeat(NOTE_LIMIT + 1) });
    expect(res.status).toBe(413);
    expect(res.body).toEqual({ success: false, error: 'Payload Too Large', details: expect.stringMatching(/medical_note/) });
    // 25,601 two-byte characters: under the limit in characters, over it in bytes.
    const wide = await codify(t, caller, { medical_note: 'é'.repeat(NOTE_LIMIT / 2 + 1) });
    expect(wide.status).toBe(413);
  });

  it('answers 413 for a PDF over 5 MB decoded', async () => {
    const big = Buffer.alloc(PDF_LIMIT + 1, 0x20);
    big.write('%PDF-1.4\n');
    const res = await codify(t, caller, { medical_note: 'HTN', pdf_file: { data: big.toString('base64'), filename: 'big.pdf' } });
    expect(res.status).toBe(413);
    expect(res.body).toEqual({ success: false, error: 'Payload Too Large', details: expect.stringMatching(/pdf_file/) });
  });

  it('answers 413 for a body over the route limit (8 MB)', async () => {
    const res = await codify(t, caller, { medical_note: 'HTN', pdf_file: { data: 'A'.repeat(9 * 1024 * 1024) } });
    expect(res.status).toBe(413);
    expect(res.body.error).toBe('Payload Too Large');
  });

  it.each([
    [{}, /medical_note is required/],
    [{ medical_note: '   ' }, /medical_note/],
    [{ medical_note: 42 }, /medical_note/],
    [{ medical_note: 'HTN', model: 'turbo' }, /model/],
    [{ medical_note: 'HTN', model: null }, /model/],
    [{ medical_note: 'HTN', temperature: 0.2 }, /unknown field: temperature/],
    [{ medical_note: 'HTN', pdf_file: 'JVBERi0=' }, /pdf_file/],
    [{ medical_note: 'HTN', pdf_file: {} }, /pdf_file.data is required/],
    [{ medical_note: 'HTN', pdf_file: { data: 'JVBERi0=', password: 'x' } }, /unknown field in pdf_file: password/],
    [[1, 2], /JSON object/],
  ])('answers 400 naming the field for %j', async (body, details) => {
    const res = await codify(t, caller, body);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ success: false, error: 'Bad Request', details: expect.stringMatching(details) });
  });

  it('answers 400 for malformed JSON', async () => {
    const res = await request(t.app)
      .post('/v1/codify')
      .set(caller.headers)
      .set('content-type', 'application/json')
      .send('{"medical_note":');
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ success: false, error: 'Bad Request', details: expect.any(String) });
  });

  it('answers 422 for pdf_file data that is not base64', async () => {
    const res = await codify(t, caller, { medical_note: 'HTN', pdf_file: { data: 'this is not base64!!' } });
    expect(res.status).toBe(422);
    expect(res.body).toEqual({ success: false, error: 'Unprocessable Entity', details: expect.stringMatching(/base64/) });
  });

  it('answers 422 for base64 data that is not a PDF', async () => {
    const res = await codify(t, caller, { medical_note: 'HTN', pdf_file: { data: Buffer.from('hello, plain text').toString('base64') } });
    expect(res.status).toBe(422);
    expect(res.body).toEqual({ success: false, error: 'Unprocessable Entity', details: expect.stringMatching(/not a PDF/) });
  });

  it('answers 422 for a PDF header with an unreadable body', async () => {
    const res = await codify(t, caller, {
      medical_note: 'HTN',
      pdf_file: { data: Buffer.from('%PDF-1.7\nnothing else').toString('base64') },
    });
    expect(res.status).toBe(422);
    expect(res.body.error).toBe('Unprocessable Entity');
  });
});
