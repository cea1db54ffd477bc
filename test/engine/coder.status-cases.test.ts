import { describe, it } from 'vitest';
import type { CodifyModel } from '../../src/engine/engine.js';
import { codifyText } from '../../src/engine/local/coder/index.js';
import { shippedCodeTable } from '../../src/terminology/shipped-release.js';
import { expectCase } from '../helpers/code-case.js';
import { STATUS_CASES } from './fixtures/status-cases.js';

const table = shippedCodeTable();
const MODELS: CodifyModel[] = ['fast', 'balanced', 'high-quality'];

describe.each(MODELS)('status, history and long-term drug therapy (I.C.21.c.3-4, Z79): %s', (model) => {
  const check = (c: (typeof STATUS_CASES)[number]) =>
    expectCase(
      codifyText(table, c.note, model).final_code_assessments.map((a) => a.code),
      c,
    );
  it.each(STATUS_CASES.filter((c) => !c.gap).map((c) => [c.rule, c] as const))('%s', (_, c) => check(c));
  // A known gap is expected to fail: the day it passes, this fails and the gap is removed.
  it.fails.each(STATUS_CASES.filter((c) => c.gap).map((c) => [`${c.rule} (known gap: ${c.gap})`, c] as const))('%s', (_, c) => check(c));
});
