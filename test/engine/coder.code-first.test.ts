import { existsSync } from 'node:fs';
import { beforeAll, describe, it } from 'vitest';
import type { CodifyModel } from '../../src/engine/engine.js';
import { codifyText } from '../../src/engine/local/coder/index.js';
import type { CodeTable } from '../../src/terminology/code-table.js';
import { expectCase } from '../helpers/code-case.js';
import { FULL_CODES_FILE, fullCodeTable } from '../helpers/full-code-table.js';
import { CODE_FIRST_CASES, type CodeFirstCase } from './fixtures/code-first-cases.js';

const MODELS: CodifyModel[] = ['fast', 'balanced', 'high-quality'];

describe.runIf(existsSync(FULL_CODES_FILE))('etiology and manifestation: code first, use additional code, code also (I.A.13)', () => {
  let table: CodeTable;
  beforeAll(async () => {
    table = await fullCodeTable();
  }, 60_000);

  /** Every level codes the case, each etiology before its manifestation. */
  const check = (c: CodeFirstCase) => {
    for (const model of MODELS) {
      const finals = codifyText(table, c.note, model).final_code_assessments.map((a) => a.code);
      expectCase(finals, c);
    }
  };
  it.each(CODE_FIRST_CASES.filter((c) => !c.gap).map((c) => [c.rule, c] as const))('%s', (_, c) => check(c));
  // A known gap is expected to fail: the day it passes, this fails and the gap is removed.
  it.fails.each(CODE_FIRST_CASES.filter((c) => c.gap).map((c) => [`${c.rule} (known gap: ${c.gap})`, c] as const))('%s', (_, c) =>
    check(c),
  );
});
