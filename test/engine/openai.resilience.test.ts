import { Writable } from 'node:stream';
import winston from 'winston';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { parseConfig } from '../../src/config.js';
import { createEngine } from '../../src/engine/create-engine.js';
import type { ClinicalEngine } from '../../src/engine/engine.js';
import { EngineUnavailableError } from '../../src/engine/engine-errors.js';
import { FallbackEngine } from '../../src/engine/fallback-engine.js';
import { EngineAnswerError } from '../../src/engine/openai/answer-error.js';
import { CodeTable } from '../../src/terminology/code-table.js';
import { starterRows } from '../../src/terminology/starter-catalog.js';
import { freePort } from '../../src/lib/free-port.js';
import { openaiEnv, startFakeOpenAI, type FakeOpenAI } from '../helpers/fake-openai.js';

const table = new CodeTable(starterRows());
// A marker in every clinical text: it must never reach a log line.
const PHI = 'Zebediah-Quux-PHI';
const NOTE = `${PHI} has known hypertension, on lisinopril.`;
const TRANSCRIPT = `[doctor] Hello ${PHI}.\n[patient] I have had a cough for 3 days.`;
const SOAP = { subjective: 's', objective: 'o', assessment: 'a', plan: 'p' };

/** A JSON logger whose lines are kept for inspection. */
function capturedLogger() {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk, _enc, done) {
      lines.push(String(chunk));
      done();
    },
  });
  const logger = winston.createLogger({
    level: 'debug',
    format: winston.format.json(),
    transports: [new winston.transports.Stream({ stream })],
  });
  return { logger, lines };
}

let fake: FakeOpenAI;
let log: ReturnType<typeof capturedLogger>;
const engineWith = (env: Record<string, string> = {}, target: { url: string } = fake): Promise<ClinicalEngine> =>
  createEngine(parseConfig(openaiEnv(target, env)), { codeTable: () => table, logger: log.logger });

beforeAll(async () => {
  fake = await startFakeOpenAI();
});
afterAll(() => fake.close());
beforeEach(() => {
  fake.reset();
  log = capturedLogger();
});

const unreachable = async () => ({ url: `http://127.0.0.1:${await freePort()}/v1` });
const failure = (p: Promise<unknown>) =>
  p.then(
    () => undefined,
    (e: unknown) => e,
  );

describe('openai engine: time-outs, retries and failures', () => {
  it('429 with Retry-After: waits as asked, then succeeds', async () => {
    fake.script({ status: 429, headers: { 'retry-after': '1' } }, { content: 'The patient reports a cough.' });
    const out = await (await engineWith()).chat([{ role: 'user', content: TRANSCRIPT }]);
    expect(out.message.content).toBe('The patient reports a cough.');
    expect(fake.requests).toHaveLength(2);
    // Retry-After: 1 second, not the 0.5 s default backoff (a lower bound, not a speed check).
    expect(fake.requests[1].at - fake.requests[0].at).toBeGreaterThanOrEqual(950);
    expect(log.lines.join('\n')).toMatch(/openai call retried.*answered HTTP 429/);
  });

  it('500 then success: backs off and retries', async () => {
    fake.script({ status: 500 }, { status: 503 }, { content: JSON.stringify(SOAP) });
    const out = await (await engineWith()).extractNote(TRANSCRIPT, 'SOAP');
    expect(out.content).toEqual(SOAP);
    expect(fake.requests).toHaveLength(3);
  });

  it('keeps failing with 5xx: EngineUnavailableError after OPENAI_MAX_RETRIES retries', async () => {
    fake.script({ status: 502 }, { status: 502 });
    const err = await failure((await engineWith({ OPENAI_MAX_RETRIES: '1' })).codify({ text: NOTE, model: 'balanced' }));
    expect(err).toBeInstanceOf(EngineUnavailableError);
    expect((err as Error).message).toBe('OpenAI-compatible endpoint answered HTTP 502 after 2 attempts');
    expect(fake.requests).toHaveLength(2);
  });

  it('answers slower than OPENAI_TIMEOUT_MS: each call times out, then EngineUnavailableError', async () => {
    fake.script({ delayMs: 3000, content: 'late' }, { delayMs: 3000, content: 'late' });
    const err = await failure(
      (await engineWith({ OPENAI_TIMEOUT_MS: '200', OPENAI_MAX_RETRIES: '1' })).chat([{ role: 'user', content: 'hi' }]),
    );
    expect(err).toBeInstanceOf(EngineUnavailableError);
    expect((err as Error).message).toMatch(/timed out after 2 attempts/);
    expect(fake.requests).toHaveLength(2);
  });

  it('unreachable endpoint: EngineUnavailableError', async () => {
    const err = await failure((await engineWith({ OPENAI_MAX_RETRIES: '1' }, await unreachable())).extractNote(TRANSCRIPT, 'SOAP'));
    expect(err).toBeInstanceOf(EngineUnavailableError);
    expect((err as Error).message).toMatch(/unreachable \(ECONNREFUSED\) after 2 attempts/);
  });

  it('a client error (401) is not retried', async () => {
    fake.script({ status: 401 }, { content: 'never asked' });
    const err = await failure((await engineWith()).chat([{ role: 'user', content: 'hi' }]));
    expect(err).toBeInstanceOf(EngineUnavailableError);
    expect((err as Error).message).toBe('OpenAI-compatible endpoint answered HTTP 401');
    expect(fake.requests).toHaveLength(1);
  });

  it('a Retry-After longer than 30 s is not awaited: unavailable now', async () => {
    fake.script({ status: 429, headers: { 'retry-after': '3600' } });
    const err = await failure((await engineWith()).chat([{ role: 'user', content: 'hi' }]));
    expect(err).toBeInstanceOf(EngineUnavailableError);
    expect(fake.requests).toHaveLength(1);
  });

  it('a cancelled call ends with the abort reason, not EngineUnavailableError, even while waiting to retry', async () => {
    fake.script({ status: 429, headers: { 'retry-after': '20' } });
    const controller = new AbortController();
    const pending = failure(
      (await engineWith({ ENGINE_FALLBACK: 'local' })).chat([{ role: 'user', content: 'hi' }], { signal: controller.signal }),
    );
    await new Promise((r) => setTimeout(r, 200));
    controller.abort(new Error('Cancelled'));
    const err = await pending;
    expect(err).not.toBeInstanceOf(EngineUnavailableError);
    expect((err as Error).message).toBe('Cancelled');
    expect(log.lines.join('\n')).not.toMatch(/engine fallback/);
  });

  it('no PHI in the logs of retries, misfits and failures', async () => {
    fake.script({ status: 500 }, { content: `not json about ${PHI}` }, { content: `${PHI} still not json` });
    await failure((await engineWith()).extractNote(TRANSCRIPT, 'SOAP'));
    fake.script({ status: 503 }, { status: 503 }, { status: 503 });
    await failure((await engineWith({ ENGINE_FALLBACK: 'local' })).codify({ text: NOTE, model: 'balanced' }));
    expect(log.lines.length).toBeGreaterThan(2);
    expect(log.lines.join('\n')).not.toContain(PHI);
  });
});

describe('ENGINE_FALLBACK=local', () => {
  it('answers with the local engine when the endpoint is unreachable, and logs the fallback without PHI', async () => {
    const engine = await engineWith({ ENGINE_FALLBACK: 'local', OPENAI_MAX_RETRIES: '0' }, await unreachable());
    expect(engine).toBeInstanceOf(FallbackEngine);
    const out = await engine.codify({ text: NOTE, model: 'balanced' });
    expect(out.final_code_assessments.map((a) => a.code)).toEqual(['I10']);
    expect(out.usage).toBeUndefined(); // the local engine spends no tokens
    const note = await engine.extractNote('[doctor] What brings you in?\n[patient] I have had a cough for 3 days.', 'SOAP');
    expect(Object.keys(note.content)).toEqual(['subjective', 'objective', 'assessment', 'plan']);
    const fallbacks = log.lines.map((l) => JSON.parse(l)).filter((l) => l.message === 'engine fallback');
    expect(fallbacks).toEqual([
      expect.objectContaining({ engine: 'openai', fallback: 'local', operation: 'codify', reason: expect.stringMatching(/unreachable/) }),
      expect.objectContaining({ operation: 'extraction' }),
    ]);
    expect(log.lines.join('\n')).not.toContain(PHI);
  });

  it('does not fall back when the endpoint answers but the answer does not fit', async () => {
    fake.script({ content: 'nope' }, { content: 'still nope' });
    const err = await failure((await engineWith({ ENGINE_FALLBACK: 'local' })).extractNote(TRANSCRIPT, 'SOAP'));
    expect(err).toBeInstanceOf(EngineAnswerError);
  });

  it('uses the endpoint when it works', async () => {
    fake.script({ content: 'From the endpoint.' });
    const out = await (await engineWith({ ENGINE_FALLBACK: 'local' })).chat([{ role: 'user', content: 'hi' }]);
    expect(out.message.content).toBe('From the endpoint.');
  });
});
