import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ClinicalEngine } from '../../src/engine/engine.js';
import { newCaller } from '../helpers/tokens.js';
import { codify, startCodifyApp, type CodifyApp } from '../helpers/codify-app.js';

/** An engine that takes `ms` to answer one code. */
function slowEngine(ms: number): ClinicalEngine {
  const never = () => Promise.reject(new Error('not used'));
  return {
    name: 'slow',
    chat: never,
    extractNote: never,
    codify: () =>
      new Promise((resolve) =>
        setTimeout(
          () =>
            resolve({
              final_code_assessments: [{ code: 'I10', description: 'x', justification: 'slow', confidence_percent: 90 }],
              discarded_code_assessments: [],
            }),
          ms,
        ),
      ),
  };
}

describe('codify time-out', () => {
  let t: CodifyApp;
  beforeAll(async () => {
    t = await startCodifyApp('codify_timeout', { env: { CODIFY_TIMEOUT_MS: '300' }, deps: { engine: slowEngine(1500) } });
  });
  afterAll(() => t.close());

  it('answers 504 with the spec body past CODIFY_TIMEOUT_MS and stores the run as failed', async () => {
    const caller = await newCaller();
    const res = await codify(t, caller, { medical_note: 'Hypertension.' });
    expect(res.status).toBe(504);
    expect(res.body).toEqual({ success: false, error: 'Gateway Timeout', details: expect.stringMatching(/did not finish/) });
    const runId = /Codification ([0-9a-f-]{36})/.exec(res.body.details)![1];
    const got = await request(t.app).get(`/v1/codify/${runId}`).set(caller.headers);
    expect(got.body).toMatchObject({ run_id: runId, status: 'failed', error: { error: 'Gateway Timeout' }, final_code_assessments: null });
    // The late engine answer does not overwrite the time-out, and the note text is gone.
    await new Promise((r) => setTimeout(r, 1_600));
    // SQL: the guarantee is that the stored text and result stay gone after the late answer (the API shows neither column).
    const { rows } = await t.deps.pool.query(`SELECT status, input_text, result FROM codify_runs WHERE id = $1`, [runId]);
    expect(rows[0]).toEqual({ status: 'failed', input_text: null, result: null });
  });
});
