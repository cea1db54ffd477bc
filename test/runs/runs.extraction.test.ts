import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEMPLATE_FIELDS, type Template } from '../../src/engine/templates.js';
import type { ClinicalEngine } from '../../src/engine/engine.js';
import { newCaller, type Caller } from '../helpers/tokens.js';
import { startRunsTestApp, type RunsTestApp } from './isolated-boss.js';
import { createRun, joinRun, newThread, runBody, VISIT } from './run-helpers.js';

const EXTRACT = { 'x-is-chat': 'false' };

describe('extraction runs (x-is-chat: false)', () => {
  let t: RunsTestApp;
  let caller: Caller;
  beforeAll(async () => {
    t = await startRunsTestApp({ workers: true });
    caller = await newCaller();
  });
  afterAll(() => t.close());

  const note = async (id: string) => (await t.deps.pool.query(`SELECT * FROM clinical_notes WHERE id = $1`, [id])).rows[0];

  it.each(Object.keys(TEMPLATE_FIELDS) as Template[])('makes a %s note linked to the transcription, thread and run', async (template) => {
    const tr = await request(t.app).post('/v1/transcriptions/create').set(caller.headers).send({ duration_seconds: 60, original_transcript: VISIT });
    const transcriptionId = tr.body.transcription.id;
    const threadId = await newThread(t.app, caller);
    const created = await createRun(t.app, caller, threadId, runBody(threadId, 'extract the note', { transcription_id: transcriptionId, template }), EXTRACT);
    expect(created.status).toBe(201);
    const run = await joinRun(t.app, caller, threadId, created.body.run_id);
    expect(run.status).toBe('completed');
    expect(run.output.template).toBe(template);
    expect(Object.keys(run.output.ai_generated_content).sort()).toEqual([...TEMPLATE_FIELDS[template]].sort());
    for (const value of Object.values(run.output.ai_generated_content)) expect(typeof value).toBe('string');
    // The stored transcript was used, not the message text.
    expect(Object.values(run.output.ai_generated_content).join(' ')).toMatch(/throat|pharyngitis/i);

    const row = await note(run.output.note_id);
    expect(row).toMatchObject({
      group_id: caller.groupId,
      user_id: caller.userId,
      template,
      transcription_id: transcriptionId,
      report_thread_id: threadId,
      report_run_id: [run.run_id],
      ai_generated_content: run.output.ai_generated_content,
      version: 1,
    });
    const versions = await t.deps.pool.query(`SELECT version FROM clinical_note_versions WHERE note_id = $1`, [row.id]);
    expect(versions.rows).toEqual([{ version: 1 }]);
  });

  it('updates config.configurable.note_id as a new version and links the run too', async () => {
    const threadId = await newThread(t.app, caller);
    const first = await joinRun(t.app, caller, threadId, (await createRun(t.app, caller, threadId, runBody(threadId, VISIT), EXTRACT)).body.run_id);
    const noteId = first.output.note_id;
    const second = await createRun(t.app, caller, threadId, runBody(threadId, VISIT, { note_id: noteId, template: 'DAP' }), EXTRACT);
    const run = await joinRun(t.app, caller, threadId, second.body.run_id);
    expect(run.status).toBe('completed');
    expect(run.output).toMatchObject({ note_id: noteId, template: 'DAP' });
    const row = await note(noteId);
    expect(row).toMatchObject({ template: 'DAP', version: 2, report_run_id: [first.run_id, run.run_id] });
    expect(Object.keys(row.ai_generated_content).sort()).toEqual(['assessment', 'data', 'plan']);
  });

  it('default template is SOAP; the note is visible through the notes API of the group only', async () => {
    const threadId = await newThread(t.app, caller);
    const run = await joinRun(t.app, caller, threadId, (await createRun(t.app, caller, threadId, runBody(threadId, VISIT), EXTRACT)).body.run_id);
    expect(run.output.template).toBe('SOAP');
    const mine = await request(t.app).get(`/v1/clinical-notes/${run.output.note_id}`).set(caller.headers);
    expect(mine.status).toBe(200);
    const other = await newCaller();
    expect((await request(t.app).get(`/v1/clinical-notes/${run.output.note_id}`).set(other.headers)).status).toBe(404);
  });
});

describe('a run whose engine fails', () => {
  let t: RunsTestApp;
  let caller: Caller;
  const failing: ClinicalEngine = {
    name: 'failing',
    chat: async () => {
      throw new Error('model said something with PHI in it');
    },
    extractNote: async () => {
      throw new Error('boom');
    },
    codify: async () => {
      throw new Error('boom');
    },
  };
  beforeAll(async () => {
    t = await startRunsTestApp({ workers: true, deps: { engine: failing } });
    caller = await newCaller();
  });
  afterAll(() => t.close());

  it('ends failed with an error that names no clinical text, records run.failed, writes nothing to the thread', async () => {
    const threadId = await newThread(t.app, caller);
    const run = await joinRun(t.app, caller, threadId, (await createRun(t.app, caller, threadId)).body.run_id);
    expect(run).toMatchObject({ status: 'failed', output: null, error: { error: 'Engine Error', details: expect.any(String) } });
    expect(run.error.details).not.toMatch(/PHI/);
    const thread = await request(t.app).get(`/v1/agent/threads/${threadId}`).set(caller.headers);
    expect(thread.body.messages).toEqual([]);
    const { rows } = await t.deps.pool.query(`SELECT type FROM outbox WHERE data->>'run_id' = $1`, [run.run_id]);
    expect(rows).toEqual([{ type: 'run.failed' }]);

    const extraction = await createRun(t.app, caller, threadId, runBody(threadId, VISIT), EXTRACT);
    const failed = await joinRun(t.app, caller, threadId, extraction.body.run_id);
    expect(failed.status).toBe('failed');
    const notes = await t.deps.pool.query(`SELECT 1 FROM clinical_notes WHERE $1 = ANY(report_run_id)`, [failed.run_id]);
    expect(notes.rowCount).toBe(0);
  });
});
