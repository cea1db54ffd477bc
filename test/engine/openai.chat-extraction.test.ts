import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { parseConfig } from '../../src/config.js';
import { createEngine } from '../../src/engine/create-engine.js';
import type { ClinicalEngine } from '../../src/engine/engine.js';
import { EngineAnswerError } from '../../src/engine/openai/answer-error.js';
import { CodeTable } from '../../src/terminology/code-table.js';
import { starterRows } from '../../src/terminology/starter-catalog.js';
import { createLogger } from '../../src/lib/logger.js';
import { openaiEnv, startFakeOpenAI, type FakeOpenAI } from '../helpers/fake-openai.js';

const table = new CodeTable(starterRows());
const TRANSCRIPT = '[doctor] What brings you in?\n[patient] I have had a cough for 3 days.\n[doctor] Lungs are clear. Take honey and rest.';
const SOAP = {
  subjective: 'CHIEF COMPLAINT: Cough.\n\nHISTORY OF PRESENT ILLNESS: The patient reports a cough for 3 days.',
  objective: 'PHYSICAL EXAM: Lungs are clear.',
  assessment: 'Acute cough.',
  plan: 'Honey and rest.',
};

let fake: FakeOpenAI;
let engine: ClinicalEngine;

beforeAll(async () => {
  fake = await startFakeOpenAI();
  engine = await createEngine(parseConfig(openaiEnv(fake)), { codeTable: () => table, logger: createLogger('error', { silent: true }) });
});
afterAll(() => fake.close());
beforeEach(() => {
  fake.reset();
});

describe('openai engine: chat', () => {
  it('answers the thread with the model, the scribe system prompt first, and reports usage', async () => {
    fake.script({ content: '  The patient reports a cough for 3 days.  ', usage: { prompt_tokens: 120, completion_tokens: 9 } });
    const out = await engine.chat([
      { role: 'user', content: TRANSCRIPT },
      { role: 'user', content: 'Summarise the visit' },
    ]);
    expect(out.message).toEqual({ role: 'assistant', content: 'The patient reports a cough for 3 days.' });
    expect(out.usage).toEqual({ prompt_tokens: 120, completion_tokens: 9 });
    const [req] = fake.requests;
    expect(req.headers.authorization).toBe('Bearer sk-test');
    expect(req.body.model).toBe('test-model');
    expect(req.body.messages[0].role).toBe('system');
    expect(req.body.messages[0].content).toMatch(/third person/);
    expect(req.body.messages.slice(1).map((m) => m.content)).toEqual([TRANSCRIPT, 'Summarise the visit']);
  });

  it('an empty reply is a clear failure', async () => {
    fake.script({ content: '   ' });
    await expect(engine.chat([{ role: 'user', content: 'hello' }])).rejects.toThrow(EngineAnswerError);
  });
});

describe('openai engine: extraction', () => {
  it('asks for strict structured output from the template schema and returns the validated note', async () => {
    fake.script({ content: JSON.stringify(SOAP), usage: { prompt_tokens: 300, completion_tokens: 80 } });
    const out = await engine.extractNote(TRANSCRIPT, 'SOAP');
    expect(out).toEqual({ template: 'SOAP', content: SOAP, usage: { prompt_tokens: 300, completion_tokens: 80 } });
    const { body } = fake.requests[0];
    expect(body.response_format).toEqual({
      type: 'json_schema',
      json_schema: {
        name: 'soap_note',
        strict: true,
        schema: {
          type: 'object',
          properties: {
            subjective: { type: 'string' },
            objective: { type: 'string' },
            assessment: { type: 'string' },
            plan: { type: 'string' },
          },
          required: ['subjective', 'objective', 'assessment', 'plan'],
          additionalProperties: false,
        },
      },
    });
    expect(body.messages[0].content).toMatch(/SOAP note/);
    expect(body.messages[0].content).toMatch(/Third person/);
    expect(body.messages[1].content).toContain(TRANSCRIPT);
  });

  it('uses the fields of the template asked for (BIRP)', async () => {
    const birp = { behavior: 'b', intervention: 'i', response: 'r', plan: 'p' };
    fake.script({ content: JSON.stringify(birp) });
    const out = await engine.extractNote(TRANSCRIPT, 'BIRP');
    expect(out.content).toEqual(birp);
    expect(fake.requests[0].body.response_format?.json_schema?.schema.required).toEqual(['behavior', 'intervention', 'response', 'plan']);
  });

  it('malformed JSON is asked again once with the error, and the second answer is used; usage adds up', async () => {
    fake.script(
      { content: '{"subjective": "cut off', usage: { prompt_tokens: 100, completion_tokens: 5 } },
      { content: JSON.stringify(SOAP), usage: { prompt_tokens: 130, completion_tokens: 60 } },
    );
    const out = await engine.extractNote(TRANSCRIPT, 'SOAP');
    expect(out.content).toEqual(SOAP);
    expect(out.usage).toEqual({ prompt_tokens: 230, completion_tokens: 65 });
    expect(fake.requests).toHaveLength(2);
    const retry = fake.requests[1].body.messages;
    expect(retry.at(-2)).toEqual({ role: 'assistant', content: '{"subjective": "cut off' });
    expect(retry.at(-1)?.role).toBe('user');
    expect(retry.at(-1)?.content).toMatch(/not valid JSON/);
  });

  it('JSON missing a field or with an extra one is asked again with the validation error', async () => {
    fake.script({ content: JSON.stringify({ subjective: 'x', objective: 'y', plan: 'z', extra: 1 }) }, { content: JSON.stringify(SOAP) });
    const out = await engine.extractNote(TRANSCRIPT, 'SOAP');
    expect(out.content).toEqual(SOAP);
    const hint = fake.requests[1].body.messages.at(-1)?.content;
    expect(hint).toMatch(/does not fit the schema/);
    expect(hint).toMatch(/assessment/);
  });

  it('two answers that do not fit are a clear failure, with the tokens spent', async () => {
    fake.script({ content: 'Sure! Here is the note: ...' }, { content: JSON.stringify({ subjective: 1 }) });
    const err = await engine.extractNote(TRANSCRIPT, 'SOAP').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(EngineAnswerError);
    expect((err as Error).message).toBe('engine answer did not fit the SOAP template');
    expect((err as EngineAnswerError).usage).toEqual({ prompt_tokens: 22, completion_tokens: 14 });
    expect(fake.requests).toHaveLength(2);
  });

  it('an answer fenced as a code block still parses (servers that ignore response_format)', async () => {
    fake.script({ content: '```json\n' + JSON.stringify(SOAP) + '\n```' });
    expect((await engine.extractNote(TRANSCRIPT, 'SOAP')).content).toEqual(SOAP);
  });
});
