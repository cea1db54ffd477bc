import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CodeAssessment } from '../../src/engine/engine.js';
import { noteLengthOf } from '../../src/modules/codify/run-codification.js';
import { buildPdf } from '../helpers/pdf.js';
import { newCaller, type Caller } from '../helpers/tokens.js';
import { codify, startCodifyApp, type CodifyApp } from '../helpers/codify-app.js';

describe('codify evidence offsets', () => {
  let t: CodifyApp;
  let caller: Caller;
  beforeAll(async () => {
    t = await startCodifyApp('codify_evidence');
    caller = await newCaller();
  });
  afterAll(() => t.close());

  const all = (body: { final_code_assessments: CodeAssessment[]; discarded_code_assessments: CodeAssessment[] }) => [
    ...body.final_code_assessments,
    ...body.discarded_code_assessments,
  ];

  it('points into medical_note in UTF-16 code units, each text the exact span', async () => {
    // An emoji (two UTF-16 units) and accented letters before the diagnoses shift byte and unit counts apart.
    const note = 'Señora 👵 de 80 años.\nKnown hypertension. Denies chest pain. Type 2 diabetes on metformin.';
    const res = await codify(t, caller, { medical_note: note });
    expect(res.status).toBe(200);
    const i10 = res.body.final_code_assessments.find((a: CodeAssessment) => a.code === 'I10');
    expect(i10.evidence).toEqual([
      { start: note.indexOf('hypertension'), end: note.indexOf('hypertension') + 12, text: 'hypertension', source: 'note' },
    ]);
    for (const a of all(res.body)) {
      expect(a.evidence!.length, a.code).toBeGreaterThan(0);
      for (const e of a.evidence!) {
        expect(e.source).toBe('note');
        expect(note.slice(e.start, e.end)).toBe(e.text);
      }
    }
    const r079 = res.body.discarded_code_assessments.find((a: CodeAssessment) => a.code === 'R07.9');
    expect(r079.evidence[0].text).toBe('chest pain');
  });

  it('points into the PDF text for what only the PDF says', async () => {
    const note = 'Follow-up visit. Essential hypertension, stable.';
    const pdf = buildPdf(['Discharge summary', 'Final diagnosis: pneumonia, treated with antibiotics.']);
    const res = await codify(t, caller, { medical_note: note, pdf_file: { data: pdf.toString('base64') } });
    expect(res.status).toBe(200);
    const j189 = res.body.final_code_assessments.find((a: CodeAssessment) => a.code === 'J18.9');
    expect(j189.evidence).toHaveLength(1);
    expect(j189.evidence[0]).toMatchObject({ source: 'pdf', text: 'pneumonia' });
    const i10 = res.body.final_code_assessments.find((a: CodeAssessment) => a.code === 'I10');
    expect(i10.evidence[0]).toMatchObject({ source: 'note', text: 'Essential hypertension' });
    expect(note.slice(i10.evidence[0].start, i10.evidence[0].end)).toBe('Essential hypertension');
  });

  it('justifications name the rule and quote the sentence', async () => {
    const res = await codify(t, caller, { medical_note: 'Office visit. Cough and fever for three days. Most likely pneumonia.' });
    const j189 = res.body.discarded_code_assessments.find((a: CodeAssessment) => a.code === 'J18.9');
    expect(j189.justification).toMatch(
      /^Discarded: uncertain diagnosis .* \(guideline IV\.H\)\. Trait: uncertain \("Most likely"\)\. Evidence: "Most likely pneumonia\."$/,
    );
    expect(j189.traits).toEqual([{ name: 'uncertain', text: 'Most likely' }]);
    for (const a of res.body.final_code_assessments) expect(a.justification).toMatch(/^Coded because .+\. Evidence: ".+"$/);
  });

  it('maps the note byte count to UTF-16 units', () => {
    const note = 'añ 👵 x';
    expect(noteLengthOf(`${note}\n\nPDF text`, Buffer.byteLength(note))).toBe(note.length);
    expect(noteLengthOf('abc', null)).toBe(3);
  });
});
