import { existsSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import type { CodifyModel } from '../../src/engine/engine.js';
import { codifyText } from '../../src/engine/local/coder/index.js';
import { CodeTable, type CodeRow } from '../../src/terminology/code-table.js';
import { readCategories, readCodeDescriptions } from '../../src/terminology/icd10-file.js';

const DIR = '../shared/data/icd10cm';
const CODES_FILE = `${DIR}/icd10cm-codes-2026.txt`;

describe.runIf(existsSync(CODES_FILE))('local coder with the full FY2026 table', () => {
  let table: CodeTable;
  beforeAll(async () => {
    const rows: CodeRow[] = [];
    for await (const r of readCodeDescriptions(CODES_FILE)) rows.push({ ...r, billable: true });
    // Headers too, so the coder has to turn them into billable codes or discard them.
    for (const c of await readCategories(`${DIR}/icd10cm-categories-April-1-2026.csv`)) {
      rows.push({ code: c.code, description: c.description, billable: false });
    }
    table = new CodeTable(rows);
  });

  const finals = (text: string, model: CodifyModel = 'balanced') =>
    codifyText(table, text, model).final_code_assessments.map((a) => a.code);

  it('codes common diagnoses to their specific billable codes', () => {
    expect(finals('History of HTN.')).toContain('I10');
    expect(finals('T2DM, diet controlled.')).toContain('E11.9');
    expect(finals('Type 2 diabetes mellitus with diabetic chronic kidney disease.')).toContain('E11.22');
    expect(finals('Acute kidney failure with tubular necrosis.')).toContain('N17.0');
  });

  it('picks laterality stated in the note', () => {
    expect(finals('Pain in right knee after a fall.')).toContain('M25.561');
    expect(finals('Pain in left knee.')).toContain('M25.562');
  });

  it('codes injuries for the initial encounter', () => {
    const codes = finals('Closed fracture of shaft of left clavicle.');
    expect(codes.some((c) => c.startsWith('S42.') && c.endsWith('A'))).toBe(true);
  });

  it.each<CodifyModel>(['fast', 'balanced', 'high-quality'])('never returns a code absent from the table, nor a header (%s)', (model) => {
    const text = [
      'A 67-year-old man with hypertension, type 2 diabetes with diabetic neuropathy and COPD presented with fever, cough and dyspnea.',
      'Chest X-ray showed right lower lobe pneumonia; no pleural effusion.',
      'Family history of colon cancer. Rule out pulmonary embolism.',
      'He was treated for acute kidney injury and hyponatremia; anemia was noted.',
    ].join('\n');
    const out = codifyText(table, text, model);
    expect(out.final_code_assessments.length).toBeGreaterThan(3);
    for (const a of out.final_code_assessments) {
      expect(table.has(a.code), a.code).toBe(true);
      expect(table.isBillable(a.code), a.code).toBe(true);
      expect(a.description).toBe(table.get(a.code)?.description);
    }
    for (const a of out.discarded_code_assessments) expect(table.has(a.code), a.code).toBe(true);
  });
});
