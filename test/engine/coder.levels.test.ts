import { existsSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import type { CodifyModel } from '../../src/engine/engine.js';
import { codifyText } from '../../src/engine/local/coder/index.js';
import type { CodeTable } from '../../src/terminology/code-table.js';
import { FULL_CODES_FILE, fullCodeTable } from '../helpers/full-code-table.js';

const MODELS: CodifyModel[] = ['fast', 'balanced', 'high-quality'];

describe.runIf(existsSync(FULL_CODES_FILE))('coder levels and title normalisation with the full FY2026 table', () => {
  let table: CodeTable;
  beforeAll(async () => {
    table = await fullCodeTable();
  }, 60_000);

  const finals = (text: string, model: CodifyModel) => codifyText(table, text, model).final_code_assessments.map((a) => a.code);
  const discarded = (text: string, model: CodifyModel) => codifyText(table, text, model).discarded_code_assessments.map((a) => a.code);

  it.each(MODELS)('a title stated in another word order is found at every level (%s)', (model) => {
    expect(finals('Right knee pain since Monday.', model)).toContain('M25.561');
  });

  it('only high-quality reads a title spread over a few extra words', () => {
    const text = 'The pain radiates to the left shoulder.';
    const titleReads = (model: CodifyModel) =>
      codifyText(table, text, model).final_code_assessments.filter((a) => a.code === 'M25.512' && /official title/.test(a.justification));
    expect(titleReads('high-quality')).toHaveLength(1);
    // (The Index reads "pain ... shoulder" at every level: Pain > shoulder, in three words that say something.)
    expect(titleReads('fast')).toHaveLength(0);
  });

  it.each(MODELS)('"-itis" is not its organ: duodenal is not duodenitis (%s)', (model) => {
    expect(finals('Biopsy showed duodenitis.', model)).toContain('K29.80');
    expect(finals('Extrinsic pyloric-duodenal stenosis.', model)).not.toContain('K29.80');
    expect(finals('The mediastinal mass compresses the trachea.', model)).not.toContain('J98.51');
  });

  it.each(MODELS)('"do not resuscitate" is a code, not a negation; "do not show" is neither (%s)', (model) => {
    expect(finals('Do not resuscitate order discussed with family.', model)).toContain('Z66');
    const other = 'X-rays do not show bone lesions.';
    expect([...finals(other, model), ...discarded(other, model)]).not.toContain('Z66');
  });

  it.each(MODELS)('fracture defaults: displaced and closed unless stated (%s)', (model) => {
    expect(finals('Closed fracture of shaft of left clavicle.', model)).toContain('S42.022A');
    expect(finals('Nondisplaced fracture of shaft of right clavicle.', model)).toContain('S42.024A');
    expect(finals('Open fracture of shaft of left clavicle.', model)).toContain('S42.022B');
  });

  it.each(MODELS)('"unspecified as acute or chronic" need not be stated (%s)', (model) => {
    expect(finals('Duodenal ulcer.', model)).toContain('K26.9');
  });

  it('a title is not read across a list or across "and"', () => {
    for (const model of MODELS) expect(finals('CT showed multiple liver and bone metastases.', model)).not.toContain('C22.9');
    expect(finals('Abdomen: soft, pain on palpation; right knee normal.', 'high-quality')).not.toContain('M25.561');
  });

  it.each(MODELS)('a combination code made from a part another rule made is as sure as its parts, never 0 (%s)', (model) => {
    // N18.32 is made from "CKD stage 3b"; E11.22 is made from it and other parts (I13.0 the Index
    // reads itself, "CKD" being chronic kidney disease).
    const note =
      'Discharge diagnoses: chronic systolic heart failure, hypertension, CKD stage 3b, type 2 diabetes with diabetic kidney disease.';
    const byCode = new Map(codifyText(table, note, model).final_code_assessments.map((a) => [a.code, a.confidence_percent]));
    for (const code of ['N18.32', 'E11.22', 'I13.0']) expect(byCode.get(code), code).toBeGreaterThan(0);
    expect(byCode.get('E11.22')!).toBeLessThanOrEqual(byCode.get('N18.32')!);
  });
});
