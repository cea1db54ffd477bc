import type { RequestListener } from 'node:http';
import request from 'supertest';
import { expect } from 'vitest';
import type { Caller } from '../helpers/tokens.js';

export const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

/** A short visit in the transcript format the local engine reads. */
export const VISIT = [
  '[doctor] Good morning. What brings you in today?',
  '[patient] I have had a sore throat and a fever for three days.',
  '[doctor] Any cough or trouble swallowing?',
  '[patient] A dry cough, and it hurts to swallow.',
  '[doctor] On exam your throat is red and the tonsils are swollen. Temperature is 38.4.',
  '[doctor] This looks like acute pharyngitis. I will do a rapid strep test and you should rest, drink fluids and take ibuprofen for the pain.',
].join('\n');

export async function newThread(app: RequestListener, caller: Caller): Promise<string> {
  const res = await request(app).post('/v1/agent/threads').set(caller.headers).send({});
  expect(res.status).toBe(201);
  return res.body.thread_id;
}

export function runBody(threadId: string, content = 'summarise the visit', configurable: Record<string, unknown> = {}) {
  return { input: { messages: [{ role: 'user', content }] }, config: { configurable: { thread_id: threadId, ...configurable } } };
}

export async function createRun(
  app: RequestListener,
  caller: Caller,
  threadId: string,
  body: unknown = runBody(threadId),
  headers: Record<string, string> = {},
) {
  return request(app)
    .post(`/v1/agent/threads/${threadId}/runs`)
    .set(caller.headers)
    .set(headers)
    .send(body as object);
}

export async function joinRun(app: RequestListener, caller: Caller, threadId: string, runId: string, timeout = 20) {
  const res = await request(app).get(`/v1/agent/threads/${threadId}/runs/${runId}/join?timeout=${timeout}`).set(caller.headers);
  expect(res.status).toBe(200);
  return res.body;
}

/** Waits (polling the API, test code only) until the run has the status. */
export async function waitForStatus(
  app: RequestListener,
  caller: Caller,
  threadId: string,
  runId: string,
  status: string,
  timeoutMs = 20_000,
) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const res = await request(app).get(`/v1/agent/threads/${threadId}/runs/${runId}`).set(caller.headers);
    if (res.body.status === status) return res.body;
    if (Date.now() > deadline) throw new Error(`run ${runId} is ${res.body.status}, not ${status}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}
