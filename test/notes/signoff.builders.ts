import request from 'supertest';
import { expect } from 'vitest';
import { readInboundEvent } from '../helpers/api-reads.js';
import { encounterData, envelope, postSigned } from '../helpers/inbound.js';
import type { TestApp } from '../helpers/test-app.js';
import { waitFor } from '../helpers/wait-for.js';
import { newCaller, type Caller } from '../helpers/tokens.js';

export function signNote(t: TestApp, caller: Caller, id: string, body?: unknown, headers: Record<string, string> = {}) {
  const req = request(t.app).post(`/v1/clinical-notes/${id}/sign`).set(caller.headers).set(headers);
  return body === undefined ? req.send() : req.send(body as object);
}

export interface PipelineNote {
  noteId: string;
  /** A caller of the note's group (the doctor of the encounter as x-doctor). */
  caller: Caller;
  data: ReturnType<typeof encounterData>;
  /** The codes of the pipeline's codification (note.ready's final_code_assessments). */
  codes: { code: string; description: string }[];
}

/**
 * A note written by the engine through the EHR pipeline (the app needs its workers), read back
 * through the event's state once its note.ready is recorded, with the codes of its codification.
 */
export async function pipelineNote(t: TestApp, overrides: Record<string, unknown> = {}): Promise<PipelineNote> {
  const data = encounterData({ visit_id: `v-${Date.now()}`, ...overrides });
  const body = envelope('encounter.transcript', data);
  expect((await postSigned(t.app, 'ehr', body)).status).toBe(202);
  // Polled by hand rather than expect.poll: callers may run this in beforeAll.
  const pipeline = await waitFor(
    async () => {
      const event = await readInboundEvent(t.app, body.id);
      return event.pipeline.note_ready ? (event.pipeline as { note_id: string; codify_run_id: string }) : undefined;
    },
    60_000,
    200,
  );
  const caller = await newCaller(data.group_id);
  const codified = await request(t.app).get(`/v1/codify/${pipeline.codify_run_id}`).set(caller.headers);
  expect(codified.status).toBe(200);
  const codes: { code: string; description: string }[] = codified.body.final_code_assessments;
  return {
    noteId: pipeline.note_id,
    caller,
    data,
    codes: codes.map(({ code, description }) => ({ code, description })),
  };
}
