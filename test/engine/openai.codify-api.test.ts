import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CodeAssessment } from '../../src/engine/engine.js';
import { codify, startCodifyApp, type CodifyApp } from '../helpers/codify-app.js';
import { openaiEnv, startFakeOpenAI, type FakeOpenAI } from '../helpers/fake-openai.js';
import { newCaller, type Caller } from '../helpers/tokens.js';

const NOTE = 'Known hypertension, on lisinopril. Denies asthma.';
const dx = (code: string, status: 'final' | 'discarded', reason: string) => ({
  code,
  status,
  evidence: 'Known hypertension',
  reason,
  confidence_percent: 93,
});

/** POST /v1/codify with ENGINE=openai against a fake chat-completions server. */
describe('POST /v1/codify with ENGINE=openai', () => {
  let fake: FakeOpenAI;
  let t: CodifyApp;
  let caller: Caller;
  beforeAll(async () => {
    fake = await startFakeOpenAI();
    const { OPENAI_BASE_URL, OPENAI_MODEL, OPENAI_API_KEY } = openaiEnv(fake) as Record<string, string>;
    t = await startCodifyApp('codify_openai', {
      env: { ENGINE: 'openai', OPENAI_BASE_URL, OPENAI_MODEL, OPENAI_API_KEY, OPENAI_MAX_RETRIES: '0', OPENAI_TIMEOUT_MS: '5000' },
    });
    caller = await newCaller();
  });
  afterAll(async () => {
    await t.close();
    await fake.close();
  });

  it('answers 200 with the model codes checked against the table, official titles, invented codes gone', async () => {
    fake.script({
      content: JSON.stringify({
        diagnoses: [
          dx('I10', 'final', 'Hypertension on treatment.'),
          dx('Z99.999', 'final', 'Invented.'),
          dx('J45.909', 'discarded', 'Negated: denies asthma.'),
        ],
      }),
    });
    const res = await codify(t, caller, { medical_note: NOTE, model: 'balanced' });
    expect(res.status).toBe(200);
    expect(res.body.final_code_assessments).toEqual([
      {
        code: 'I10',
        description: 'Essential (primary) hypertension',
        justification: 'Hypertension on treatment. Evidence: "Known hypertension"',
        confidence_percent: 93,
        evidence: [
          {
            start: NOTE.indexOf('Known hypertension'),
            end: NOTE.indexOf('Known hypertension') + 18,
            text: 'Known hypertension',
            source: 'note',
          },
        ],
        traits: [],
      },
    ]);
    expect(res.body.discarded_code_assessments.map((a: CodeAssessment) => a.code)).toEqual(['J45.909']);
    expect(fake.requests).toHaveLength(1);
    expect(fake.requests[0].body.messages[1].content).toContain(NOTE);
  });

  it('answers 503 with the spec body when the endpoint is down', async () => {
    await fake.close();
    const res = await codify(t, caller, { medical_note: NOTE });
    expect(res.status).toBe(503);
    expect(res.body).toMatchObject({ success: false, error: 'Service Unavailable', details: expect.any(String) });
  });
});
