import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../helpers/test-app.js';
import { readNote } from '../helpers/api-reads.js';
import { newCaller, type Caller } from '../helpers/tokens.js';
import { createRun, ISO, joinRun, newThread, runBody, VISIT } from './runs.builders.js';

describe('run status path', () => {
  let t: TestApp;
  let caller: Caller;
  beforeAll(async () => {
    t = await startTestApp({ workers: true });
    caller = await newCaller();
  });
  afterAll(() => t.close());

  it('answers 201 pending at once, then the chat run completes with the reply appended to the thread', async () => {
    const threadId = await newThread(t.app, caller);
    const created = await createRun(t.app, caller, threadId, runBody(threadId, `${VISIT}\nWhat medications were mentioned?`));
    expect(created.status).toBe(201);
    expect(created.body).toEqual({
      run_id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      thread_id: threadId,
      status: 'pending',
      created_at: expect.stringMatching(ISO),
      kind: 'chat',
      started_at: null,
      ended_at: null,
      output: null,
      error: null,
      patient_id: null,
      visit_id: null,
    });

    const run = await joinRun(t.app, caller, threadId, created.body.run_id);
    expect(run.status).toBe('completed');
    expect(run.started_at).toMatch(ISO);
    expect(run.ended_at).toMatch(ISO);
    expect(run.error).toBeNull();
    expect(run.output.messages).toEqual([{ role: 'assistant', content: expect.any(String) }]);
    expect(run.output.messages[0].content.length).toBeGreaterThan(0);

    const thread = await request(t.app).get(`/v1/agent/threads/${threadId}`).set(caller.headers);
    expect(thread.body.messages.map((m: { role: string }) => m.role)).toEqual(['user', 'assistant']);
    expect(thread.body.messages[1].content).toBe(run.output.messages[0].content);
    expect(thread.body.messages.every((m: { run_id: string }) => m.run_id === run.run_id)).toBe(true);
  });

  it('records run.completed in the outbox with ids only', async () => {
    const threadId = await newThread(t.app, caller);
    const created = await createRun(t.app, caller, threadId);
    await joinRun(t.app, caller, threadId, created.body.run_id);
    // SQL: the outbox has no read API (its events are only seen delivered, by an endpoint's receiver).
    const { rows } = await t.deps.pool.query(`SELECT type, group_id, data FROM outbox WHERE data->>'run_id' = $1`, [created.body.run_id]);
    expect(rows).toEqual([
      {
        type: 'run.completed',
        group_id: caller.groupId,
        data: { run_id: created.body.run_id, thread_id: threadId, kind: 'chat', status: 'completed', group_id: caller.groupId },
      },
    ]);
  });

  it('runs extraction with x-is-chat false on the messages text and links the note', async () => {
    const threadId = await newThread(t.app, caller);
    const created = await createRun(t.app, caller, threadId, runBody(threadId, VISIT), { 'x-is-chat': 'false' });
    expect(created.status).toBe(201);
    expect(created.body.kind).toBe('extraction');
    const run = await joinRun(t.app, caller, threadId, created.body.run_id);
    expect(run.status).toBe('completed');
    expect(run.output).toEqual({
      note_id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      template: 'SOAP',
      ai_generated_content: {
        subjective: expect.any(String),
        objective: expect.any(String),
        assessment: expect.any(String),
        plan: expect.any(String),
      },
      // DESIGN.md (Clinical notes): extraction adds evidence, keyed by the template's sections.
      evidence: { subjective: expect.any(Array), objective: expect.any(Array), assessment: expect.any(Array), plan: expect.any(Array) },
    });
    const note = await readNote(t.app, caller, run.output.note_id);
    expect(note).toMatchObject({ report_thread_id: threadId, report_run_id: [run.run_id], group_id: caller.groupId });
    // Extraction does not talk in the thread.
    const thread = await request(t.app).get(`/v1/agent/threads/${threadId}`).set(caller.headers);
    expect(thread.body.messages).toEqual([]);
  });

  it('gets one run and lists runs newest first with limit and offset', async () => {
    const threadId = await newThread(t.app, caller);
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) ids.push((await createRun(t.app, caller, threadId)).body.run_id);
    for (const id of ids) await joinRun(t.app, caller, threadId, id);

    const one = await request(t.app).get(`/v1/agent/threads/${threadId}/runs/${ids[1]}`).set(caller.headers);
    expect(one.status).toBe(200);
    expect(one.body).toMatchObject({ run_id: ids[1], thread_id: threadId, status: 'completed' });

    const all = await request(t.app).get(`/v1/agent/threads/${threadId}/runs`).set(caller.headers);
    expect(all.status).toBe(200);
    expect(all.body.map((r: { run_id: string }) => r.run_id)).toEqual([...ids].reverse());
    const page = await request(t.app).get(`/v1/agent/threads/${threadId}/runs?limit=1&offset=1`).set(caller.headers);
    expect(page.body.map((r: { run_id: string }) => r.run_id)).toEqual([ids[1]]);
    for (const bad of ['limit=0', 'limit=101', 'limit=x', 'offset=-1', 'status=success']) {
      const res = await request(t.app).get(`/v1/agent/threads/${threadId}/runs?${bad}`).set(caller.headers);
      expect(res.status, bad).toBe(400);
    }
  });
});
