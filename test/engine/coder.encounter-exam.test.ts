import { describe, it } from 'vitest';
import type { CodifyModel } from '../../src/engine/engine.js';
import { codifyText } from '../../src/engine/local/coder/index.js';
import { shippedCodeTable } from '../../src/terminology/shipped-release.js';
import { expectCase } from '../helpers/code-case.js';
import { ENCOUNTER_EXAM_CASES, type EncounterExamCase } from './fixtures/encounter-exam-cases.js';

const MODELS: CodifyModel[] = ['fast', 'balanced', 'high-quality'];
const table = shippedCodeTable();

describe('encounters without a diagnosis, and codes a coder would not send (Official Guidelines I.C.21.c)', () => {
  describe.each(MODELS)('%s', (model) => {
    const check = (c: EncounterExamCase) => {
      const got = codifyText(table, c.note, model).final_code_assessments.map((a) => a.code);
      expectCase(got, c);
    };
    const gap = (c: EncounterExamCase) => c.gap !== undefined && (c.gapIn ?? MODELS).includes(model);
    it.each(ENCOUNTER_EXAM_CASES.filter((c) => !gap(c)).map((c) => [c.rule, c] as const))('%s', (_, c) => check(c));
    // A known gap is expected to fail: the day it passes, this fails and the gap is removed.
    it.fails.each(ENCOUNTER_EXAM_CASES.filter(gap).map((c) => [`${c.rule} (known gap: ${c.gap})`, c] as const))('%s', (_, c) => check(c));
  });
});
