import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openaiEnv, startFakeOpenAI, type FakeOpenAI } from '../helpers/fake-openai.js';
import { isolatedDatabase, type IsolatedDatabase } from '../helpers/isolated-database.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';
import { newCaller, type Caller } from '../helpers/tokens.js';
import { createRun, joinRun, newThread } from './runs.builders.js';

/** ENGINE=openai against a fake chat-completions server: each run records the tokens it spent, or why it failed. */
describe('token usage per run', () => {
  let fake: FakeOpenAI;
  let db: IsolatedDatabase;
  let t: TestApp;
  let caller: Caller;

  beforeAll(async () => {
    fake = await startFakeOpenAI();
    db = await isolatedDatabase('usage');
    const env = openaiEnv(fake) as Record<string, string>;
    t = await startTestApp({ workers: true, env: { ...env, ENGINE: 'openai', OPENAI_MAX_RETRIES: '0', DATABASE_URL: db.url } });
    caller = await newCaller();
  });
  afterAll(async () => {
    await t.close();
    await fake.close();
    await db.drop();
  });

  it('stores the prompt and completion tokens of a chat run', async () => {
    fake.script({ content: 'The patient reported chest pain for two days.', usage: { prompt_tokens: 321, completion_tokens: 45 } });
    const threadId = await newThread(t.app, caller);
    const run = await createRun(t.app, caller, threadId);
    const joined = await joinRun(t.app, caller, threadId, run.body.run_id);
    expect(joined.error).toBeNull();
    expect(joined.status).toBe('completed');
    // SQL: no API shows a run's token usage (not in the run, the console or /metrics).
    const { rows } = await t.deps.pool.query(`SELECT usage FROM runs WHERE id = $1`, [run.body.run_id]);
    expect(rows[0].usage).toEqual({ prompt_tokens: 321, completion_tokens: 45 });
  });
});

describe('a run whose engine endpoint is down', () => {
  it('ends failed with the reason', async () => {
    const fake = await startFakeOpenAI();
    const db = await isolatedDatabase('engine_down');
    const env = openaiEnv(fake) as Record<string, string>;
    await fake.close(); // nothing listens there any more
    const t = await startTestApp({ workers: true, env: { ...env, OPENAI_MAX_RETRIES: '0', DATABASE_URL: db.url } });
    try {
      const caller = await newCaller();
      const threadId = await newThread(t.app, caller);
      const run = await createRun(t.app, caller, threadId);
      const joined = await joinRun(t.app, caller, threadId, run.body.run_id);
      expect(joined).toMatchObject({
        status: 'failed',
        error: { error: 'Service Unavailable', details: expect.stringMatching(/unreachable/) },
      });
    } finally {
      await t.close();
      await db.drop();
    }
  });
});
