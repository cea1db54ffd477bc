import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildPdf } from '../helpers/pdf.js';
import { newCaller, type Caller } from '../helpers/tokens.js';
import { codify, startCodifyApp, type CodifyApp } from '../helpers/codify-app.js';

describe('codify with a PDF', () => {
  let t: CodifyApp;
  let caller: Caller;
  beforeAll(async () => {
    t = await startCodifyApp('codify_pdf');
    caller = await newCaller();
  });
  afterAll(() => t.close());

  const codes = (list: Array<{ code: string }>) => list.map((a) => a.code);

  it('codes a diagnosis found only in the PDF text', async () => {
    const note = 'Follow-up visit. Essential hypertension, stable.';
    const without = await codify(t, caller, { medical_note: note });
    expect(codes(without.body.final_code_assessments)).not.toContain('J18.9');

    const pdf = buildPdf(['Discharge summary', 'Final diagnosis: pneumonia, treated with antibiotics.']);
    const res = await codify(t, caller, { medical_note: note, pdf_file: { data: pdf.toString('base64'), filename: 'discharge.pdf' } });
    expect(res.status).toBe(200);
    expect(codes(res.body.final_code_assessments)).toEqual(expect.arrayContaining(['I10', 'J18.9']));
    const j189 = res.body.final_code_assessments.find((a: { code: string }) => a.code === 'J18.9');
    expect(j189.justification).toMatch(/pneumonia/i);
  });

  it('accepts base64 with line breaks and a data: URL prefix', async () => {
    const b64 = buildPdf(['Assessment: type 2 diabetes mellitus.'])
      .toString('base64')
      .replace(/(.{76})/g, '$1\n');
    const res = await codify(t, caller, { medical_note: 'Annual visit.', pdf_file: { data: `data:application/pdf;base64,${b64}` } });
    expect(res.status).toBe(200);
    expect(codes(res.body.final_code_assessments)).toContain('E11.9');
  });

  it('records the PDF size and pages, not its text', async () => {
    const pdf = buildPdf(['Hypertension.']);
    const res = await codify(t, caller, { medical_note: 'Visit.', pdf_file: { data: pdf.toString('base64') } });
    // SQL: the guarantee is what is stored of a PDF (its size and pages, never its text), which no API shows.
    const { rows } = await t.deps.pool.query(`SELECT pdf_bytes, pdf_pages, input_text FROM codify_runs WHERE id = $1`, [res.body.run_id]);
    expect(rows[0]).toEqual({ pdf_bytes: pdf.length, pdf_pages: 1, input_text: null });
  });
});
