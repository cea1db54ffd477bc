import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEMPLATE_FIELDS, type Template } from '../../src/engine/templates.js';
import { readNote, readNoteVersions } from '../helpers/api-reads.js';
import { newCaller, type Caller } from '../helpers/tokens.js';
import { startRunsTestApp, type RunsTestApp } from './isolated-boss.js';
import { createRun, joinRun, newThread, runBody, VISIT } from './runs.builders.js';

const EXTRACT = { 'x-is-chat': 'false' };

describe('extraction runs (x-is-chat: false)', () => {
  let t: RunsTestApp;
  let caller: Caller;
  beforeAll(async () => {
    t = await startRunsTestApp({ workers: true });
    caller = await newCaller();
  });
  afterAll(() => t.close());

  const note = (id: string) => readNote(t.app, caller, id);

  it.each(Object.keys(TEMPLATE_FIELDS) as Template[])('makes a %s note linked to the transcription, thread and run', async (template) => {
    const tr = await request(t.app)
      .post('/v1/transcriptions/create')
      .set(caller.headers)
      .send({ duration_seconds: 60, original_transcript: VISIT });
    const transcriptionId = tr.body.transcription.id;
    const threadId = await newThread(t.app, caller);
    const created = await createRun(
      t.app,
      caller,
      threadId,
      runBody(threadId, 'extract the note', { transcription_id: transcriptionId, template }),
      EXTRACT,
    );
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
    expect(await readNoteVersions(t.app, caller, row.id)).toEqual([1]);
  });

  it('updates config.configurable.note_id as a new version and links the run too', async () => {
    const threadId = await newThread(t.app, caller);
    const first = await joinRun(
      t.app,
      caller,
      threadId,
      (await createRun(t.app, caller, threadId, runBody(threadId, VISIT), EXTRACT)).body.run_id,
    );
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
    const run = await joinRun(
      t.app,
      caller,
      threadId,
      (await createRun(t.app, caller, threadId, runBody(threadId, VISIT), EXTRACT)).body.run_id,
    );
    expect(run.output.template).toBe('SOAP');
    const mine = await request(t.app).get(`/v1/clinical-notes/${run.output.note_id}`).set(caller.headers);
    expect(mine.status).toBe(200);
    const other = await newCaller();
    expect((await request(t.app).get(`/v1/clinical-notes/${run.output.note_id}`).set(other.headers)).status).toBe(404);
  });
});
