import { describe, expect, it } from 'vitest';
import type { CodifyModel } from '../../src/engine/engine.js';
import { codifyText } from '../../src/engine/local/coder/index.js';
import { CodeTable } from '../../src/terminology/code-table.js';
import { starterRows } from '../../src/terminology/starter-catalog.js';

const table = new CodeTable(starterRows());
const MODELS: CodifyModel[] = ['fast', 'balanced', 'high-quality'];

const finals = (text: string, model: CodifyModel = 'balanced') => codifyText(table, text, model).final_code_assessments.map((a) => a.code);
const discarded = (text: string, model: CodifyModel = 'balanced') => codifyText(table, text, model).discarded_code_assessments;

describe('local coder with the starter catalog', () => {
  it.each(MODELS)('codes HTN and high blood pressure as I10 (%s)', (model) => {
    expect(finals('Patient with HTN, on lisinopril.', model)).toContain('I10');
    expect(finals('She has high blood pressure.', model)).toContain('I10');
  });

  it('gives the official title, a quotation and a confidence', () => {
    const [a] = codifyText(table, 'Known hypertension, well controlled.', 'balanced').final_code_assessments;
    expect(a).toMatchObject({ code: 'I10', description: 'Essential (primary) hypertension' });
    expect(a.justification).toContain('"Known hypertension');
    expect(a.confidence_percent).toBeGreaterThan(50);
    expect(a.confidence_percent).toBeLessThanOrEqual(100);
  });

  it('codes T2DM as E11.9, and a stated complication more specifically', () => {
    expect(finals('T2DM on metformin.')).toEqual(['E11.9']);
    const out = codifyText(table, 'T2DM with diabetic nephropathy.', 'balanced');
    expect(out.final_code_assessments.map((a) => a.code)).toContain('E11.21');
    expect(out.final_code_assessments.map((a) => a.code)).not.toContain('E11.9');
    const e119 = out.discarded_code_assessments.find((a) => a.code === 'E11.9');
    expect(e119?.justification).toMatch(/less specific than E11\.21/);
  });

  it('discards the less specific code: chest pain over pain', () => {
    const out = codifyText(table, 'He reports chest pain since this morning.', 'balanced');
    expect(out.final_code_assessments.map((a) => a.code)).toEqual(['R07.9']);
    expect(out.discarded_code_assessments.find((a) => a.code === 'R52')?.justification).toMatch(/less specific than R07\.9/);
  });

  it.each([
    ['Patient denies chest pain.', 'R07.9'],
    ['No evidence of pneumonia on the chest film.', 'J18.9'],
    ['Negative for fever and chills.', 'R50.9'],
  ])('discards negated findings: %s', (text, code) => {
    expect(finals(text)).not.toContain(code);
    expect(discarded(text).find((a) => a.code === code)?.justification).toMatch(/negated/);
  });

  it('discards family history', () => {
    const text = 'Family history of type 2 diabetes. Mother had breast cancer.';
    expect(finals(text)).toEqual([]);
    const reasons = discarded(text).map((a) => `${a.code} ${a.justification}`);
    expect(reasons.some((r) => r.startsWith('E11.9') && /family history/.test(r))).toBe(true);
    expect(reasons.some((r) => r.startsWith('C50.919') && /family history/.test(r))).toBe(true);
  });

  it('discards hypothetical and rule-out diagnoses', () => {
    for (const text of ['Rule out pulmonary embolism.', 'CT ordered to rule out appendicitis.', 'Suspected UTI, urine culture pending.']) {
      const out = codifyText(table, text, 'balanced');
      expect(out.final_code_assessments).toEqual([]);
      expect(out.discarded_code_assessments[0]?.justification).toMatch(/hypothetical/);
    }
  });

  it('discards resolved conditions', () => {
    const out = codifyText(table, 'Pneumonia resolved after antibiotics.', 'balanced');
    expect(out.final_code_assessments).toEqual([]);
    expect(out.discarded_code_assessments[0]?.justification).toMatch(/historical or resolved/);
  });

  it('keeps what is asserted next to what is negated', () => {
    const codes = finals('He has atrial fibrillation but denies palpitations.');
    expect(codes).toContain('I48.91');
    expect(codes).not.toContain('R00.2');
  });

  it('does not read ordinary words as abbreviations', () => {
    expect(finals('Blood drawn at 10 ms intervals; all results normal.')).toEqual([]);
  });

  it.each(MODELS)('returns only codes of the table, dotted (%s)', (model) => {
    const text = 'COPD, CHF, AFib and CKD. Denies MI. Family history of stroke. Rule out DVT. Sugar is high.';
    const out = codifyText(table, text, model);
    for (const a of [...out.final_code_assessments, ...out.discarded_code_assessments]) {
      expect(table.has(a.code)).toBe(true);
      expect(a.code).toMatch(/^[A-Z][0-9A-Z]{2}(\.[0-9A-Z]{1,4})?$/);
      expect(a.description).toBe(table.get(a.code)?.description);
    }
  });

  it('returns nothing for an empty note', () => {
    expect(codifyText(table, '', 'balanced')).toEqual({ final_code_assessments: [], discarded_code_assessments: [] });
  });
});
