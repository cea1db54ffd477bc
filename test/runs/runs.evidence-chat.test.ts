import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clinicalNoteDto } from '../../src/openapi/schemas.js';
import { newCaller, type Caller } from '../helpers/tokens.js';
import { KNEE } from '../engine/fixtures/visits.js';
import { startRunsTestApp, type RunsTestApp } from './isolated-boss.js';
import { createRun, joinRun, newThread, runBody } from './runs.builders.js';

const EXTRACT = { 'x-is-chat': 'false' };
const lines = KNEE.transcript.split('\n');

describe('extraction evidence and the grounded chat, through the front door', () => {
  let t: RunsTestApp;
  let caller: Caller;
  beforeAll(async () => {
    t = await startRunsTestApp({ workers: true });
    caller = await newCaller();
  });
  afterAll(() => t.close());

  const transcription = async () =>
    (
      await request(t.app)
        .post('/v1/transcriptions/create')
        .set(caller.headers)
        .send({ duration_seconds: 300, original_transcript: KNEE.transcript })
    ).body.transcription.id as string;

  it('the run output and the note carry evidence; a PATCH drops the changed section only; chat on the thread answers from the visit', async () => {
    const transcriptionId = await transcription();
    const threadId = await newThread(t.app, caller);
    const created = await createRun(t.app, caller, threadId, runBody(threadId, 'extract', { transcription_id: transcriptionId }), EXTRACT);
    const run = await joinRun(t.app, caller, threadId, created.body.run_id);
    expect(run.status).toBe('completed');
    expect(Object.keys(run.output.evidence).sort()).toEqual(['assessment', 'objective', 'plan', 'subjective']);
    const naproxen = run.output.evidence.plan.find((e: { text: string }) => /naproxen 500 mg/i.test(e.text));
    expect(naproxen.lines.map((l: number) => lines[l - 1]).join(' ')).toMatch(/naproxen 500 mg/);

    const got = await request(t.app).get(`/v1/clinical-notes/${run.output.note_id}`).set(caller.headers);
    expect(got.status).toBe(200);
    expect(got.body.evidence).toEqual(run.output.evidence);
    expect(clinicalNoteDto.strict().safeParse(got.body).error?.issues ?? []).toEqual([]); // as documented

    const edited = { ...got.body.ai_generated_content, plan: 'Plan rewritten by the clinician.' };
    const patched = await request(t.app)
      .patch(`/v1/clinical-notes/${run.output.note_id}`)
      .set(caller.headers)
      .send({ ai_generated_content: edited });
    expect(patched.status).toBe(200);
    expect(patched.body.evidence.plan).toBeUndefined();
    expect(patched.body.evidence.subjective).toEqual(run.output.evidence.subjective);

    const chat = await createRun(t.app, caller, threadId, runBody(threadId, 'what medications and doses were discussed?'));
    const answer = await joinRun(t.app, caller, threadId, chat.body.run_id);
    expect(answer.status).toBe('completed');
    const reply = answer.output.messages[0].content as string;
    expect(reply).toMatch(/naproxen 500 mg/i);
    expect(reply).toMatch(/line 21: "doctor: i'll send in naproxen/);
    expect(reply).not.toMatch(/don't have a visit transcript/);
  });

  it('a chat run that names a transcription_id answers from it', async () => {
    const transcriptionId = await transcription();
    const threadId = await newThread(t.app, caller);
    const chat = await createRun(t.app, caller, threadId, runBody(threadId, 'any allergies?', { transcription_id: transcriptionId }));
    const answer = await joinRun(t.app, caller, threadId, chat.body.run_id);
    expect(answer.output.messages[0].content).toMatch(/penicillin/i);
  });
});
