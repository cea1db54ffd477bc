import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PdfReader } from '../../src/modules/codify/pdf-reader.js';
import { buildPagesPdf, buildPdf, textContent } from '../helpers/pdf.js';
import { newCaller, type Caller } from '../helpers/tokens.js';
import { codify, startCodifyApp, type CodifyApp } from '../helpers/codify-app.js';

const line = 'Community acquired pneumonia, treated with amoxicillin. '.repeat(2);
/** 450 pages sharing one deflated content stream: ~70 KB of PDF whose text is ~2.5 MB. */
const inflating = () => buildPagesPdf(450, textContent(Array.from({ length: 50 }, (_, i) => `${i} ${line}`)), { deflate: true });

/** The slowest answer of /api/v1/health, polled every 50 ms while `work` runs. */
async function healthWhile<T>(t: CodifyApp, work: () => Promise<T>): Promise<{ result: T; worstHealthMs: number }> {
  let worstHealthMs = 0;
  let done = false;
  const poll = (async () => {
    while (!done) {
      const t0 = performance.now();
      await request(t.app).get('/api/v1/health');
      worstHealthMs = Math.max(worstHealthMs, performance.now() - t0);
      await new Promise((r) => setTimeout(r, 50));
    }
  })();
  try {
    return { result: await work(), worstHealthMs };
  } finally {
    done = true;
    await poll;
  }
}

describe('codify PDF limits (DESIGN Codify limits): pages, text, time; PDF work off the event loop', () => {
  let t: CodifyApp;
  let caller: Caller;
  beforeAll(async () => {
    t = await startCodifyApp('codify_pdf_limits');
    caller = await newCaller();
  });
  afterAll(() => t.close());

  const send = (pdf: Buffer) => codify(t, caller, { medical_note: 'Follow-up visit.', pdf_file: { data: pdf.toString('base64') } });

  it('answers 413 to a PDF of more than 500 pages, and reads one of 500', async () => {
    const over = await send(buildPagesPdf(501, textContent(['Hypertension.'])));
    expect(over.status).toBe(413);
    expect(over.body).toEqual({ success: false, error: 'Payload Too Large', details: 'pdf_file has 501 pages; the limit is 500' });
    const at = await send(buildPagesPdf(500, textContent(['Hypertension.'])));
    expect(at.status).toBe(200);
    // SQL: no API shows a codification's PDF page count.
    const { rows } = await t.deps.pool.query(`SELECT pdf_pages FROM codify_runs WHERE id = $1`, [at.body.run_id]);
    expect(rows[0].pdf_pages).toBe(500);
  }, 60_000);

  it('answers 413 to a small PDF whose text inflates past 1 MB, while health keeps answering', async () => {
    const pdf = inflating();
    expect(pdf.length).toBeLessThan(100_000);
    const started = performance.now();
    const { result: res, worstHealthMs } = await healthWhile(t, () => send(pdf));
    expect(res.status).toBe(413);
    expect(res.body.details).toBe("pdf_file's text exceeds the limit of 1048576 bytes (1 MB)");
    // Bounds for a loaded 2-core machine (about 1 s of parsing on an idle one).
    expect(performance.now() - started).toBeLessThan(15_000);
    expect(worstHealthMs).toBeLessThan(1_000);
    console.log(
      `inflating PDF (${pdf.length} bytes): 413 in ${Math.round(performance.now() - started)} ms, slowest health ${Math.round(worstHealthMs)} ms`,
    );
  }, 60_000);

  it('answers 422 to a PDF not read within the budget (10 s in the service), and the next PDF is read', async () => {
    // Spawning the worker and loading pdf.js are outside the budget: the first call is cold.
    const reader = new PdfReader({ budgetMs: 300 });
    try {
      const slow = buildPagesPdf(500, textContent(Array.from({ length: 40 }, () => 'Hypertension and type 2 diabetes.')));
      const err = await reader.read(slow).catch((e: unknown) => e);
      expect(err).toMatchObject({ status: 422, details: 'pdf_file could not be read within 0.3 s' });
      expect(await reader.read(buildPdf(['Essential hypertension.']))).toEqual({ text: 'Essential hypertension.', pages: 1 });
    } finally {
      await reader.close();
    }
  }, 60_000);

  it('answers 422 to bytes that only look like a PDF, from the worker', async () => {
    const res = await send(
      Buffer.from('%PDF-1.7\n' + '1 0 obj << /Type /Catalog /Pages 2 0 R >> endobj\n'.repeat(100) + 'trailer << /Root 9 0 R >>\n%%EOF'),
    );
    expect(res.status).toBe(422);
    expect(res.body.details).toBe('pdf_file.data could not be read as a PDF document');
  });
});
