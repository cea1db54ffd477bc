import { existsSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import type { CodifyModel } from '../../src/engine/engine.js';
import { codifyText } from '../../src/engine/local/coder/index.js';
import type { CodeTable } from '../../src/terminology/code-table.js';
import { FULL_CODES_FILE, fullCodeTable } from '../helpers/full-code-table.js';

/**
 * Confidence says how firm the reading is, not only how often CodiEsp's sparse gold confirmed a
 * code: the Index followed to a billable code through the subterms a plain assessment states
 * ("Tear, meniscus, medial", right knee) is a firm reading, and its confidence says so. None of
 * these notes is a tuned guideline case.
 */
const FIRM: Array<[note: string, code: string]> = [
  ['Assessment: right knee medial meniscus tear.', 'S83.241A'],
  ['Assessment: cellulitis of the left lower leg.', 'L03.116'],
  ['Assessment: gastroesophageal reflux disease with esophagitis.', 'K21.00'],
];

const MODELS: CodifyModel[] = ['balanced', 'high-quality'];

describe.runIf(existsSync(FULL_CODES_FILE))('confidence of firm Index readings', () => {
  let table: CodeTable;
  beforeAll(async () => {
    table = await fullCodeTable();
  }, 60_000);

  describe.each(MODELS)('%s', (model) => {
    it.each(FIRM)('"%s" is coded %s with a confidence of 60% or more', (note, code) => {
      const a = codifyText(table, note, model).final_code_assessments.find((x) => x.code === code);
      expect(a, `${code} is coded`).toBeDefined();
      expect(a!.confidence_percent).toBeGreaterThanOrEqual(60);
    });
  });
});
