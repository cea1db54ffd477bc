import { createServer, type Server } from 'node:http';
import { Client } from '@langchain/langgraph-sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SlowEngine } from '../helpers/slow-engine.js';
import { newCaller, type Caller } from '../helpers/tokens.js';
import type { RunsTestApp } from './isolated-boss.js';
import { VISIT } from './runs.builders.js';
import { startSlowApp } from './slow-app.js';

/** The official LangGraph JS client against the app listening on 127.0.0.1 (DESIGN.md "Runs"). */
describe('@langchain/langgraph-sdk Client', () => {
  let t: RunsTestApp & { engine: SlowEngine };
  let caller: Caller;
  let server: Server;
  let client: Client;
  let base: string;
  beforeAll(async () => {
    t = await startSlowApp(300);
    caller = await newCaller();
    server = createServer(t.app).listen(0, '127.0.0.1');
    await new Promise((r) => server.once('listening', r));
    base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
    client = new Client({ apiUrl: `${base}/v1/agent`, defaultHeaders: caller.headers, callerOptions: { maxRetries: 0 } });
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
    await t.close();
  });

  const payload = (threadId: string, content: string) => ({
    input: { messages: [{ role: 'user', content }] },
    config: { configurable: { thread_id: threadId } },
  });

  it('creates and gets threads', async () => {
    const thread = await client.threads.create();
    expect(thread).toMatchObject({ thread_id: expect.any(String), status: 'active' });
    const again = await client.threads.get(thread.thread_id);
    expect(again.thread_id).toBe(thread.thread_id);
  });

  it('creates, joins, gets and lists runs; the thread then holds the conversation', async () => {
    const { thread_id: threadId } = await client.threads.create({ metadata: { ward: 'B' } });
    const run = await client.runs.create(threadId, 'scribe', {
      ...payload(threadId, `${VISIT}\nSummarise the visit.`),
      metadata: { from: 'sdk' },
    });
    expect(run).toMatchObject({ run_id: expect.any(String), thread_id: threadId, status: 'pending' });

    const joined = (await client.runs.join(threadId, run.run_id)) as unknown as { status: string; output: { messages: unknown[] } };
    expect(joined.status).toBe('completed');
    expect(joined.output.messages).toHaveLength(1);

    const got = await client.runs.get(threadId, run.run_id);
    expect(got).toMatchObject({ run_id: run.run_id, status: 'completed' });
    const second = await client.runs.create(threadId, 'scribe', payload(threadId, 'What medications were mentioned?'));
    await client.runs.join(threadId, second.run_id);
    const list = await client.runs.list(threadId, { limit: 10, offset: 0 });
    expect(list.map((r) => r.run_id)).toEqual([second.run_id, run.run_id]);
    expect((await client.runs.list(threadId, { limit: 1, offset: 1 })).map((r) => r.run_id)).toEqual([run.run_id]);

    const thread = (await client.threads.get(threadId)) as unknown as { values: { messages: { role: string }[] } };
    expect(thread.values.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'user', 'assistant']);
  });

  it('streams a run until it ends (joinStream)', async () => {
    const { thread_id: threadId } = await client.threads.create();
    const run = await client.runs.create(threadId, 'scribe', payload(threadId, 'help'));
    const parts: { event: string; data: unknown }[] = [];
    for await (const part of client.runs.joinStream(threadId, run.run_id)) parts.push(part as { event: string; data: unknown });
    expect(parts[0]).toMatchObject({ event: 'metadata', data: { run_id: run.run_id } });
    expect(parts.at(-1)).toMatchObject({ event: 'end' });
    expect(parts.filter((p) => p.event === 'values').at(-1)).toMatchObject({ data: { status: 'completed' } });
  });

  it('creates and streams a run in one call (runs.stream), telling onRunCreated its ids', async () => {
    const { thread_id: threadId } = await client.threads.create();
    let created: { run_id: string; thread_id?: string } | undefined;
    const parts: { event: string; data: unknown }[] = [];
    const stream = client.runs.stream(threadId, 'scribe', {
      ...payload(threadId, 'help'),
      streamMode: 'values',
      onRunCreated: (meta) => (created = meta),
    });
    for await (const part of stream) parts.push(part as { event: string; data: unknown });
    expect(created).toEqual({ run_id: expect.any(String), thread_id: threadId });
    expect(parts[0]).toEqual({ event: 'metadata', data: { run_id: created!.run_id, thread_id: threadId }, id: undefined });
    expect(parts.at(-1)).toMatchObject({ event: 'end', data: { status: 'completed' } });
    const run = await client.runs.get(threadId, created!.run_id);
    expect(run.status).toBe('completed');
  });

  it('cancels a run', async () => {
    t.engine.delayMs = 10_000;
    try {
      const { thread_id: threadId } = await client.threads.create();
      const run = await client.runs.create(threadId, 'scribe', payload(threadId, 'summarise'));
      const cancelled = (await client.runs.cancel(threadId, run.run_id, true, 'interrupt')) as unknown as {
        status: string;
        error: { error: string };
      };
      expect(cancelled).toMatchObject({ status: 'failed', error: { error: 'Cancelled' } });
      const joined = (await client.runs.join(threadId, run.run_id)) as unknown as { status: string };
      expect(joined.status).toBe('failed');
    } finally {
      t.engine.delayMs = 300;
    }
  });

  it('runs extraction with x-is-chat: false as a default header', async () => {
    const extractor = new Client({ apiUrl: `${base}/v1/agent`, defaultHeaders: { ...caller.headers, 'x-is-chat': 'false' } });
    const { thread_id: threadId } = await extractor.threads.create();
    const run = await extractor.runs.create(threadId, 'extractor', {
      input: { messages: [{ role: 'user', content: VISIT }] },
      config: { configurable: { thread_id: threadId, template: 'BIRP' } },
    });
    const joined = (await extractor.runs.join(threadId, run.run_id)) as unknown as { output: { template: string; note_id: string } };
    expect(joined.output).toMatchObject({ template: 'BIRP', note_id: expect.any(String) });
  });
});
