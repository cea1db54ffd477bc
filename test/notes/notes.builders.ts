import { randomUUID } from 'node:crypto';
import request from 'supertest';
import type { TestApp } from '../helpers/test-app.js';
import type { Caller } from '../helpers/tokens.js';

export const soap = (overrides: Record<string, string> = {}) => ({
  subjective: 'Cough for three days.',
  objective: 'Temperature 37.9 C; lungs clear.',
  assessment: 'Viral upper respiratory infection.',
  plan: 'Fluids, rest, review in one week.',
  ...overrides,
});

export const dap = () => ({ data: 'Reports low mood.', assessment: 'Mild depressive episode.', plan: 'Weekly sessions.' });

/** POST a note (201 expected by callers that use the body). */
export function postNote(t: TestApp, caller: Caller, body: Record<string, unknown> = {}, headers: Record<string, string> = {}) {
  return request(t.app)
    .post('/v1/clinical-notes')
    .set(caller.headers)
    .set(headers)
    .send({ template: 'SOAP', ai_generated_content: soap(), ...body });
}

export async function newNote(t: TestApp, caller: Caller, body: Record<string, unknown> = {}) {
  const res = await postNote(t, caller, body);
  if (res.status !== 201) throw new Error(`note creation failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body as { id: string; version: number; created_at: string; updated_at: string } & Record<string, unknown>;
}

export function patchNote(t: TestApp, caller: Caller, id: string, body: unknown, headers: Record<string, string> = {}) {
  return request(t.app)
    .patch(`/v1/clinical-notes/${id}`)
    .set(caller.headers)
    .set(headers)
    .send(body as object);
}

export async function newTranscription(t: TestApp, caller: Caller): Promise<string> {
  const res = await request(t.app)
    .post('/v1/transcriptions/create')
    .set(caller.headers)
    .send({ duration_seconds: 60, original_transcript: 'Doctor: how are you? Patient: coughing.' });
  return res.body.transcription.id;
}

export async function newThread(t: TestApp, caller: Caller): Promise<string> {
  const res = await request(t.app).post('/v1/agent/threads').set(caller.headers).send({});
  return res.body.thread_id;
}

/** A run row of the thread, written directly (the run endpoints are another module's). */
export async function newRun(t: TestApp, caller: Caller, threadId: string): Promise<string> {
  const id = randomUUID();
  await t.deps.pool.query(
    `INSERT INTO runs (id, thread_id, group_id, user_id, doctor_id, kind, input) VALUES ($1, $2, $3, $4, $5, 'extraction', '{}')`,
    [id, threadId, caller.groupId, caller.userId, caller.doctor],
  );
  return id;
}

/** What a note may link to, all of the caller's group: a transcription, a thread and `runs` runs of it. */
export async function newLinks(t: TestApp, caller: Caller, runs = 1) {
  const transcriptionId = await newTranscription(t, caller);
  const threadId = await newThread(t, caller);
  const runIds: string[] = [];
  for (let i = 0; i < runs; i++) runIds.push(await newRun(t, caller, threadId));
  return { transcriptionId, threadId, runIds };
}

/** SQL: the outbox has no read API (its events are only seen delivered, by an endpoint's receiver). */
export async function outboxEvents(t: TestApp, noteId: string) {
  const { rows } = await t.deps.pool.query(
    `SELECT type, group_id, data FROM outbox WHERE data->>'note_id' = $1 ORDER BY created_at, (data->>'version')::int`,
    [noteId],
  );
  return rows as { type: string; group_id: string; data: Record<string, unknown> }[];
}

export const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
