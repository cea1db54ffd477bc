import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ClinicalEngine, CodifyResult } from '../../src/engine/engine.js';
import { EngineUnavailableError } from '../../src/engine/engine-errors.js';
import { newCaller } from '../helpers/tokens.js';
import { codify, startCodifyApp, type CodifyApp } from '../helpers/codify-app.js';

/** An engine whose codify answer the test sets. */
function scriptedEngine(): ClinicalEngine & { next: () => Promise<CodifyResult> } {
  const never = () => Promise.reject(new Error('not used'));
  const engine = {
    name: 'scripted',
    chat: never,
    extractNote: never,
    next: () => Promise.reject(new Error('unset')) as Promise<CodifyResult>,
    codify: () => engine.next(),
  };
  return engine;
}

describe('codify engine failures and the final code check', () => {
  const engine = scriptedEngine();
  let t: CodifyApp;
  beforeAll(async () => {
    t = await startCodifyApp('codify_engine', { deps: { engine } });
  });
  afterAll(() => t.close());

  it('answers 503 with the spec body when the engine is unavailable', async () => {
    engine.next = () => Promise.reject(new EngineUnavailableError('endpoint refused the connection'));
    const res = await codify(t, await newCaller(), { medical_note: 'HTN' });
    expect(res.status).toBe(503);
    expect(res.body).toEqual({ success: false, error: 'Service Unavailable', details: expect.stringMatching(/unavailable/) });
  });

  it('answers 500 with the spec body and no internals on an unexpected engine failure', async () => {
    engine.next = () => Promise.reject(new TypeError('cannot read properties of undefined (reading secret_stack)'));
    const res = await codify(t, await newCaller(), { medical_note: 'HTN' });
    expect(res.status).toBe(500);
    expect(res.body).toEqual({ success: false, error: 'Internal Server Error', details: expect.stringMatching(/unexpected error/) });
    expect(JSON.stringify(res.body)).not.toMatch(/secret_stack|TypeError/);
  });

  it('never returns a code absent from the table; titles and confidences come out official and bounded', async () => {
    engine.next = async () => ({
      final_code_assessments: [
        { code: 'i10', description: 'made-up title', justification: 'stated', confidence_percent: 140 },
        { code: 'Z99.999X', description: 'invented', justification: 'hallucinated', confidence_percent: 99 },
        { code: 'not a code', description: '', justification: '', confidence_percent: 50 },
      ],
      discarded_code_assessments: [{ code: 'E119', description: '?', justification: 'family history', confidence_percent: -5 }],
    });
    const res = await codify(t, await newCaller(), { medical_note: 'HTN' });
    expect(res.status).toBe(200);
    expect(res.body.final_code_assessments).toEqual([
      { code: 'I10', description: 'Essential (primary) hypertension', justification: 'stated', confidence_percent: 100, traits: [] },
    ]);
    expect(res.body.discarded_code_assessments).toEqual([
      {
        code: 'E11.9',
        description: 'Type 2 diabetes mellitus without complications',
        justification: 'family history',
        confidence_percent: 0,
        traits: [],
      },
    ]);
  });

  it('keeps only evidence whose offsets hold its exact text in the note or the PDF text', async () => {
    const note = 'Señora 👵. Known HTN.';
    const at = note.indexOf('HTN');
    engine.next = async () => ({
      final_code_assessments: [
        {
          code: 'I10',
          description: '',
          justification: 'stated',
          confidence_percent: 90,
          evidence: [
            { start: at, end: at + 3, text: 'HTN', source: 'note' },
            { start: at, end: at + 3, text: 'hypertension', source: 'note' }, // not what the note says there
            { start: 9_000, end: 9_003, text: 'HTN', source: 'note' }, // outside the note
            { start: 0, end: 3, text: 'HTN', source: 'pdf' }, // no PDF sent
            { start: -1, end: 2, text: 'x', source: 'elsewhere' } as never,
          ],
        },
      ],
      discarded_code_assessments: [],
    });
    const res = await codify(t, await newCaller(), { medical_note: note });
    expect(res.status).toBe(200);
    expect(res.body.final_code_assessments[0].evidence).toEqual([{ start: at, end: at + 3, text: 'HTN', source: 'note' }]);
  });
});
