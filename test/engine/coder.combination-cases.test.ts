import { describe, it } from 'vitest';
import type { CodifyModel } from '../../src/engine/engine.js';
import { codifyText } from '../../src/engine/local/coder/index.js';
import { shippedCodeTable } from '../../src/terminology/shipped-release.js';
import { expectCase } from '../helpers/code-case.js';
import { COMBINATION_CASES, type CombinationCase } from './fixtures/combination-cases.js';

// Combination codes and Excludes1 pairs (I.A.12.a, I.A.15, I.B.9, I.C.4, I.C.9, I.C.10, I.C.11).
const table = shippedCodeTable();
const MODELS: CodifyModel[] = ['balanced', 'high-quality'];

describe.each(MODELS)('combination codes and Excludes1 pairs, %s', (model) => {
  const check = (c: CombinationCase) =>
    expectCase(
      codifyText(table, c.note, model).final_code_assessments.map((a) => a.code),
      c,
    );
  it.each(COMBINATION_CASES.filter((c) => !c.gap).map((c) => [c.rule, c] as const))('%s', (_, c) => check(c));
  // A known gap is expected to fail: the day it passes, this fails and the gap is removed.
  it.fails.each(COMBINATION_CASES.filter((c) => c.gap).map((c) => [`${c.rule} (known gap: ${c.gap})`, c] as const))('%s', (_, c) =>
    check(c),
  );
});
