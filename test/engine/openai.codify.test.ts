import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { parseConfig } from '../../src/config.js';
import { createEngine } from '../../src/engine/create-engine.js';
import type { ClinicalEngine } from '../../src/engine/engine.js';
import { EngineAnswerError } from '../../src/engine/openai/answer-error.js';
import { CodeTable } from '../../src/terminology/code-table.js';
import { starterRows } from '../../src/terminology/starter-catalog.js';
import { createLogger } from '../../src/lib/logger.js';
import { openaiEnv, startFakeOpenAI, type FakeOpenAI } from '../helpers/fake-openai.js';

// The starter catalog plus the header (non-billable) category E11, as a CMS table has it.
const table = new CodeTable([...starterRows(), { code: 'E11', description: 'Type 2 diabetes mellitus', billable: false }]);
const NOTE = 'Known hypertension on lisinopril. Type 2 diabetes. Denies asthma.';

type Dx = { code: string; status: 'final' | 'discarded'; evidence: string; reason: string; confidence_percent: number };
const dx = (code: string, status: Dx['status'], confidence_percent = 90, extra: Partial<Dx> = {}): Dx => ({
  code,
  status,
  evidence: 'quoted evidence',
  reason: 'Stated in the note.',
  confidence_percent,
  ...extra,
});
const answer = (...diagnoses: Dx[]) => JSON.stringify({ diagnoses });

let fake: FakeOpenAI;
let engine: ClinicalEngine;

beforeAll(async () => {
  fake = await startFakeOpenAI();
  const env = openaiEnv(fake, { OPENAI_MODEL_FAST: 'small-model', OPENAI_MODEL_HIGH_QUALITY: 'large-model' });
  engine = await createEngine(parseConfig(env), { codeTable: () => table, logger: createLogger('error', { silent: true }) });
});
afterAll(() => fake.close());
beforeEach(() => {
  fake.reset();
});

describe('openai engine: codification checked against ICD-10-CM', () => {
  it('keeps real billable codes with official titles; header codes are discarded; invented codes never come back', async () => {
    fake.script({
      content: answer(
        dx('I10', 'final', 95, { evidence: 'Known hypertension on lisinopril.', reason: 'Hypertension on treatment.' }),
        dx('e119', 'final', 88), // undotted, lower case: still E11.9
        dx('E11', 'final', 80), // header code
        dx('Z99.999', 'final', 70), // invented
        dx('J45.909', 'discarded', 92, { reason: 'Negated: the patient denies asthma.' }),
        dx('X00.0', 'discarded', 50), // invented, even as discarded
      ),
      usage: { prompt_tokens: 900, completion_tokens: 150 },
    });
    const out = await engine.codify({ text: NOTE, model: 'balanced' });

    expect(out.final_code_assessments).toEqual([
      {
        code: 'I10',
        description: 'Essential (primary) hypertension',
        justification: 'Hypertension on treatment. Evidence: "Known hypertension on lisinopril."',
        confidence_percent: 95,
        // DESIGN.md (Codify): the model's quotation, found in the note, becomes offsets.
        evidence: [{ start: 0, end: 33, text: 'Known hypertension on lisinopril.', source: 'note' }],
      },
      expect.objectContaining({ code: 'E11.9', description: 'Type 2 diabetes mellitus without complications', confidence_percent: 88 }),
    ]);
    expect(out.discarded_code_assessments).toEqual([
      expect.objectContaining({
        code: 'E11',
        description: 'Type 2 diabetes mellitus',
        justification: expect.stringMatching(/^Discarded: header code, not billable/),
      }),
      expect.objectContaining({
        code: 'J45.909',
        description: 'Unspecified asthma, uncomplicated',
        justification: expect.stringMatching(/^Negated/),
      }),
    ]);
    const all = [...out.final_code_assessments, ...out.discarded_code_assessments];
    for (const a of all) expect(table.has(a.code), a.code).toBe(true);
    expect(all.map((a) => a.code)).not.toContain('Z99.999');
    expect(out.usage).toEqual({ prompt_tokens: 900, completion_tokens: 150 });
  });

  it('the description is the table title even when the model sends its own; confidence is clamped to 0-100', async () => {
    fake.script({
      content: JSON.stringify({
        diagnoses: [{ ...dx('I10', 'final', 140), description: 'Made-up title' }, dx('E11.9', 'final', -20)],
      }),
    });
    // An extra key fails the strict schema; the retry answers properly.
    fake.script({ content: answer(dx('I10', 'final', 140), dx('E11.9', 'final', -20.4)) });
    const out = await engine.codify({ text: NOTE, model: 'balanced' });
    expect(out.final_code_assessments.map((a) => [a.code, a.description, a.confidence_percent])).toEqual([
      ['I10', 'Essential (primary) hypertension', 100],
      ['E11.9', 'Type 2 diabetes mellitus without complications', 0],
    ]);
  });

  it('gives the model the local coder candidates as context, with the note, in strict structured output', async () => {
    fake.script({ content: answer(dx('I10', 'final')) });
    await engine.codify({ text: NOTE, model: 'balanced' });
    const { body } = fake.requests[0];
    expect(body.model).toBe('test-model'); // no OPENAI_MODEL_BALANCED: OPENAI_MODEL
    expect(body.response_format?.json_schema?.strict).toBe(true);
    const user = body.messages[1].content;
    expect(user).toContain('I10 | Essential (primary) hypertension | accepted');
    expect(user).toContain('E11.9 | Type 2 diabetes mellitus without complications');
    expect(user).toMatch(/J45\.909 \| Unspecified asthma, uncomplicated \| Discarded: negated/);
    expect(user).toContain(NOTE);
  });

  it('uses the model of the codify level when one is configured', async () => {
    fake.script({ content: answer() }, { content: answer() });
    await engine.codify({ text: NOTE, model: 'fast' });
    await engine.codify({ text: NOTE, model: 'high-quality' });
    expect(fake.requests.map((r) => r.body.model)).toEqual(['small-model', 'large-model']);
  });

  it('a code accepted and also discarded stays accepted, once', async () => {
    fake.script({ content: answer(dx('I10', 'discarded'), dx('I10', 'final'), dx('I10', 'final')) });
    const out = await engine.codify({ text: NOTE, model: 'balanced' });
    expect(out.final_code_assessments.map((a) => a.code)).toEqual(['I10']);
    expect(out.discarded_code_assessments).toEqual([]);
  });

  it('two answers that do not fit the schema are a clear failure', async () => {
    fake.script({ content: '{"codes": ["I10"]}' }, { content: 'I10' });
    const err = await engine.codify({ text: NOTE, model: 'balanced' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(EngineAnswerError);
    expect((err as Error).message).toBe('engine answer did not fit the codification schema');
  });
});

describe('openai engine: evidence offsets', () => {
  it('places a verbatim quotation in the note, falls back to the local coder when the model paraphrases', async () => {
    fake.script({
      content: answer(
        dx('I10', 'final', 95, { evidence: 'known HYPERTENSION', reason: 'Hypertension.' }),
        dx('E11.9', 'final', 90, { evidence: 'the patient is diabetic', reason: 'Diabetes.' }),
      ),
    });
    const out = await engine.codify({ text: NOTE, model: 'balanced' });
    const [i10, e119] = out.final_code_assessments;
    expect(i10.evidence).toEqual([{ start: 0, end: 18, text: 'Known hypertension', source: 'note' }]);
    // Not in the note: the local coder's span for the same code, never the model's words.
    expect(e119.evidence?.[0]).toMatchObject({ text: 'Type 2 diabetes', source: 'note' });
    for (const a of out.final_code_assessments) for (const e of a.evidence ?? []) expect(NOTE.slice(e.start, e.end)).toBe(e.text);
  });
});
