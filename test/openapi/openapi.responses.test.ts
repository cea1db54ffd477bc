import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { errorDto } from '../../src/openapi/registry.js';
import { centerPageDto, webhookEndpointCreatedDto } from '../../src/openapi/schemas-operator.js';
import {
  clinicalNoteDto,
  createTranscriptionResponseDto,
  healthDto,
  noteVersionsDto,
  runDto,
  threadDetailDto,
  threadDto,
} from '../../src/openapi/schemas.js';
import { startTestApp, TEST_OPERATOR_KEY, type TestApp } from '../helpers/test-app.js';
import { newCaller, type Caller } from '../helpers/tokens.js';

/**
 * The body fits the documented DTO, and has exactly its fields (nothing undocumented): every
 * required field, and of the optional ones (a note's `evidence`) only those it carries.
 */
function conforms(schema: z.ZodObject, body: unknown): void {
  const parsed = schema.safeParse(body);
  expect(parsed.success ? [] : parsed.error.issues).toEqual([]);
  const shape = schema.shape as Record<string, z.ZodType>;
  const expected = Object.keys(shape).filter((key) => !shape[key].safeParse(undefined).success || key in (body as object));
  expect(Object.keys(body as object).sort()).toEqual(expected.sort());
}

describe('OpenAPI response DTOs match what the app answers', () => {
  let t: TestApp;
  let caller: Caller;
  beforeAll(async () => {
    t = await startTestApp();
    caller = await newCaller();
  });
  afterAll(() => t.close());

  it('threads, runs, transcriptions and notes', async () => {
    const thread = await request(t.app).post('/v1/agent/threads').set(caller.headers).send({}).expect(201);
    conforms(threadDto, thread.body);
    const threadId = thread.body.thread_id;
    conforms(threadDetailDto, (await request(t.app).get(`/v1/agent/threads/${threadId}`).set(caller.headers).expect(200)).body);

    const run = await request(t.app)
      .post(`/v1/agent/threads/${threadId}/runs`)
      .set(caller.headers)
      .send({ input: { messages: [{ role: 'user', content: 'Hello' }] }, config: { configurable: { thread_id: threadId } } })
      .expect(201);
    conforms(runDto, run.body);

    const transcription = await request(t.app)
      .post('/v1/transcriptions/create')
      .set(caller.headers)
      .send({ duration_seconds: 12, original_transcript: '[doctor] Hello. [patient] A cough.' })
      .expect(201);
    conforms(createTranscriptionResponseDto, transcription.body);

    const note = await request(t.app)
      .post('/v1/clinical-notes')
      .set(caller.headers)
      .send({
        template: 'SOAP',
        ai_generated_content: { subjective: 's', objective: 'o', assessment: 'a', plan: 'p' },
        transcription_id: transcription.body.transcription.id,
      })
      .expect(201);
    conforms(clinicalNoteDto, note.body);
    const patched = await request(t.app)
      .patch(`/v1/clinical-notes/${note.body.id}`)
      .set(caller.headers)
      .set('If-Match', '"1"')
      .send({ feedback: 'ok' })
      .expect(200);
    conforms(clinicalNoteDto, patched.body);
    const versions = await request(t.app).get(`/v1/clinical-notes/${note.body.id}/versions`).set(caller.headers).expect(200);
    conforms(noteVersionsDto, versions.body);
  });

  it('health, centers, webhook endpoints and the error body', async () => {
    conforms(healthDto, (await request(t.app).get('/api/v1/health').expect(200)).body);
    const key = { 'x-api-key': TEST_OPERATOR_KEY };
    conforms(centerPageDto, (await request(t.app).get('/api/v1/centers?limit=2').set(key).expect(200)).body);
    const endpoint = await request(t.app)
      .post('/api/v1/webhook-endpoints')
      .set(key)
      .send({ url: 'http://127.0.0.1:9/hook', events: ['note.ready'] })
      .expect(201);
    conforms(webhookEndpointCreatedDto, endpoint.body);
    await request(t.app).delete(`/api/v1/webhook-endpoints/${endpoint.body.id}`).set(key).expect(204);
    conforms(errorDto, (await request(t.app).get('/v1/transcriptions/nope').set(caller.headers).expect(404)).body);
  });
});
