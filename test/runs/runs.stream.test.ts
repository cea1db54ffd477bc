import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SlowEngine } from '../helpers/slow-engine.js';
import { newCaller, type Caller } from '../helpers/tokens.js';
import type { RunsTestApp } from './isolated-boss.js';
import { createRun, joinRun, newThread, runBody, VISIT } from './runs.builders.js';
import { startSlowApp } from './slow-app.js';

interface SseEvent {
  event: string;
  data: unknown;
}

/** Parses a whole event stream; every `data:` line must be JSON. */
function parseSse(text: string): SseEvent[] {
  return text
    .split('\n\n')
    .filter((block) => block.trim() && !block.startsWith(':'))
    .map((block) => {
      const lines = block.split('\n');
      const event = lines.find((l) => l.startsWith('event: '))?.slice(7) ?? 'message';
      const data = lines.filter((l) => l.startsWith('data: ')).map((l) => JSON.parse(l.slice(6)));
      expect(data).toHaveLength(1);
      return { event, data: data[0] };
    });
}

describe('GET .../runs/{runId}/stream', () => {
  let t: RunsTestApp & { engine: SlowEngine };
  let caller: Caller;
  let server: Server;
  let base: string;
  beforeAll(async () => {
    t = await startSlowApp(700);
    caller = await newCaller();
    server = createServer(t.app).listen(0, '127.0.0.1');
    await new Promise((r) => server.once('listening', r));
    base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
    await t.close();
  });

  const stream = (threadId: string, runId: string) =>
    fetch(`${base}/v1/agent/threads/${threadId}/runs/${runId}/stream`, { headers: caller.headers });

  it('sends metadata, every status change, the output, then end, and closes when the run ends', async () => {
    const threadId = await newThread(t.app, caller);
    const { body: created } = await createRun(t.app, caller, threadId, runBody(threadId, VISIT), { 'x-is-chat': 'false' });
    const res = await stream(threadId, created.run_id);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const events = parseSse(await res.text()); // resolves only because the server closes the stream

    expect(events[0]).toEqual({ event: 'metadata', data: { run_id: created.run_id, thread_id: threadId } });
    expect(events.at(-1)).toEqual({ event: 'end', data: { run_id: created.run_id, status: 'completed' } });
    const values = events.filter((e) => e.event === 'values').map((e) => e.data as { status: string; output: unknown });
    // Each change once, forward only (a busy machine may coalesce pending/running into one read).
    const order = ['pending', 'running', 'completed'];
    const seen = values.map((v) => order.indexOf(v.status));
    expect(seen).toEqual([...new Set(seen)].sort());
    expect(values.at(-1)!.status).toBe('completed');
    expect(values.at(-1)!.output).toMatchObject({ template: 'SOAP', note_id: expect.any(String) });
    expect(values.length).toBeGreaterThanOrEqual(2);
  });

  it('streams the final state of a run that has already ended, and closes', async () => {
    const threadId = await newThread(t.app, caller);
    const { body: created } = await createRun(t.app, caller, threadId);
    const ended = await joinRun(t.app, caller, threadId, created.run_id);
    const res = await stream(threadId, created.run_id);
    const events = parseSse(await res.text());
    expect(events).toEqual([
      { event: 'metadata', data: { run_id: created.run_id, thread_id: threadId } },
      { event: 'values', data: ended },
      { event: 'end', data: { run_id: created.run_id, status: 'completed' } },
    ]);
  });

  it('ends with the failure when the run is cancelled mid-stream', async () => {
    t.engine.delayMs = 5_000;
    try {
      const threadId = await newThread(t.app, caller);
      const { body: created } = await createRun(t.app, caller, threadId);
      const res = await stream(threadId, created.run_id);
      const text = res.text();
      await new Promise((r) => setTimeout(r, 300));
      await fetch(`${base}/v1/agent/threads/${threadId}/runs/${created.run_id}/cancel`, { method: 'POST', headers: caller.headers });
      const events = parseSse(await text);
      expect(events.at(-1)).toEqual({ event: 'end', data: { run_id: created.run_id, status: 'failed' } });
      expect(events.at(-2)).toMatchObject({ event: 'values', data: { status: 'failed', error: { error: 'Cancelled' } } });
    } finally {
      t.engine.delayMs = 700;
    }
  });

  it('answers a JSON 404 for an unknown run', async () => {
    const threadId = await newThread(t.app, caller);
    const res = await stream(threadId, '00000000-0000-4000-8000-000000000000');
    expect(res.status).toBe(404);
    expect(await res.json()).toMatchObject({ success: false, error: 'Not Found' });
  });
});

describe('POST .../runs/stream', () => {
  let t: RunsTestApp & { engine: SlowEngine };
  let caller: Caller;
  beforeAll(async () => {
    t = await startSlowApp(200);
    caller = await newCaller();
  });
  afterAll(() => t.close());

  it('validates like POST .../runs (400 JSON before any event)', async () => {
    const { default: request } = await import('supertest');
    const threadId = await newThread(t.app, caller);
    const res = await request(t.app)
      .post(`/v1/agent/threads/${threadId}/runs/stream`)
      .set(caller.headers)
      .send({ input: { messages: [] } });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ success: false, error: 'Bad Request' });
  });
});
