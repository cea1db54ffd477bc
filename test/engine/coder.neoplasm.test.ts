import { existsSync } from 'node:fs';
import { beforeAll, describe, it } from 'vitest';
import type { CodifyModel } from '../../src/engine/engine.js';
import { codifyText } from '../../src/engine/local/coder/index.js';
import type { CodeTable } from '../../src/terminology/code-table.js';
import { expectCase } from '../helpers/code-case.js';
import { FULL_CODES_FILE, fullCodeTable } from '../helpers/full-code-table.js';
import { NEOPLASM_CASES } from './fixtures/neoplasm-cases.js';

const MODELS: CodifyModel[] = ['fast', 'balanced', 'high-quality'];

describe.runIf(existsSync(FULL_CODES_FILE))('neoplasms by morphology, Neoplasm Table site and I.C.2, full FY2026 table', () => {
  let table: CodeTable;
  beforeAll(async () => {
    table = await fullCodeTable();
  }, 60_000);

  describe.each(MODELS)('%s', (model) => {
    const check = (c: (typeof NEOPLASM_CASES)[number]) => {
      const finals = codifyText(table, c.note, model).final_code_assessments.map((a) => a.code);
      expectCase(finals, c);
    };
    it.each(NEOPLASM_CASES.filter((c) => !c.gap).map((c) => [c.rule, c] as const))('%s', (_, c) => check(c));
    // A known gap is expected to fail: the day it passes, this fails and the gap is removed.
    it.fails.each(NEOPLASM_CASES.filter((c) => c.gap).map((c) => [`${c.rule} (known gap: ${c.gap})`, c] as const))('%s', (_, c) =>
      check(c),
    );
  });
});
