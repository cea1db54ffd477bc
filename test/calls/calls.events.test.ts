import { randomUUID } from 'node:crypto';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withTransaction } from '../../src/db/transaction.js';
import { applyCallEvent, CALL_STATUSES, canTransition, CallTransitionError, type CallStatus } from '../../src/modules/calls/index.js';
import { startTestApp, TEST_API_KEYS, type TestApp } from '../helpers/test-app.js';
import { validCall } from './calls.builders.js';

const TERMINAL: CallStatus[] = ['completed', 'failed', 'no_answer', 'cancelled'];

describe('call status transitions', () => {
  it('nothing leaves a terminal status and nothing returns to queued', () => {
    for (const from of TERMINAL) for (const to of CALL_STATUSES) expect(canTransition(from, to)).toBe(false);
    for (const from of CALL_STATUSES) expect(canTransition(from, 'queued')).toBe(false);
  });

  it('allows the forward path and refuses going back', () => {
    expect(canTransition('queued', 'dispatched')).toBe(true);
    expect(canTransition('dispatched', 'ringing')).toBe(true);
    expect(canTransition('ringing', 'in_progress')).toBe(true);
    expect(canTransition('in_progress', 'completed')).toBe(true);
    expect(canTransition('ringing', 'no_answer')).toBe(true);
    expect(canTransition('in_progress', 'ringing')).toBe(false);
    expect(canTransition('ringing', 'dispatched')).toBe(false);
    expect(canTransition('in_progress', 'no_answer')).toBe(false);
  });
});

describe('applyCallEvent', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  const newCall = async () =>
    (await request(t.app).post('/api/v1/calls/external-questionnaire').set('x-api-key', TEST_API_KEYS[0]).send(validCall())).body
      .callId as string;
  const apply = (callId: string, event: unknown) => withTransaction(t.deps.pool, (tx) => applyCallEvent(tx, callId, event));
  const read = async (callId: string) => (await request(t.app).get(`/api/v1/calls/${callId}`).set('x-api-key', TEST_API_KEYS[0])).body;
  // SQL: the outbox has no read API (its events are only seen delivered, by an endpoint's receiver).
  const events = async (callId: string) =>
    (await t.deps.pool.query(`SELECT type, group_id, data FROM outbox WHERE data->>'callId' = $1 ORDER BY created_at`, [callId])).rows;

  it('moves a call through its statuses, keeps answers and transcript, and records call.updated / call.completed', async () => {
    const callId = await newCall();
    await apply(callId, { type: 'call.status', status: 'ringing' });
    await apply(callId, { type: 'call.status', status: 'in_progress' });
    await apply(callId, {
      type: 'call.answers',
      answers: [
        { questionId: 'q1', answer: 2 },
        { questionId: 'q2', answer: 'no' },
      ],
    });
    await apply(callId, { type: 'call.answers', answers: [{ questionId: 'q1', answer: 3 }] });
    await apply(callId, { type: 'call.status', status: 'completed', reason: 'finished' });
    // A transcript may arrive after the end of the call.
    const last = await apply(callId, { type: 'call.transcript', transcript: 'Agent: hello. Patient: hi.' });
    expect(last.changed).toBe(true);
    const call = await read(callId);
    expect(call).toMatchObject({
      status: 'completed',
      statusReason: 'finished',
      answers: [
        { questionId: 'q1', answer: 3 },
        { questionId: 'q2', answer: 'no' },
      ],
      transcript: 'Agent: hello. Patient: hi.',
      completedAt: expect.any(String),
    });
    const recorded = await events(callId);
    expect(recorded.map((e) => e.type)).toEqual([
      'call.updated',
      'call.updated',
      'call.updated',
      'call.updated',
      'call.completed',
      'call.updated',
    ]);
    expect(recorded.every((e) => e.group_id === null && e.data.group_id === null)).toBe(true);
    // Events carry ids and status, never answers or the transcript.
    expect(JSON.stringify(recorded)).not.toMatch(/Patient: hi|"answer"/);
  });

  it('refuses a transition out of a terminal status (409) and changes nothing', async () => {
    const callId = await newCall();
    await apply(callId, { type: 'call.status', status: 'no_answer' });
    const err = await apply(callId, { type: 'call.status', status: 'ringing' }).catch((e) => e);
    expect(err).toBeInstanceOf(CallTransitionError);
    expect(err.status).toBe(409);
    expect((await read(callId)).status).toBe('no_answer');
    expect(await events(callId)).toHaveLength(1);
  });

  it('the same status again is a no-op', async () => {
    const callId = await newCall();
    await apply(callId, { type: 'call.status', status: 'ringing' });
    expect((await apply(callId, { type: 'call.status', status: 'ringing' })).changed).toBe(false);
    expect(await events(callId)).toHaveLength(1);
  });

  it('unknown calls are 404 and malformed events 422', async () => {
    const unknown = randomUUID();
    await expect(apply(unknown, { type: 'call.status', status: 'ringing' })).rejects.toMatchObject({
      status: 404,
      details: `Call ${unknown} not found`,
    });
    await expect(apply('not-a-uuid', { type: 'call.status', status: 'ringing' })).rejects.toMatchObject({ status: 404 });
    const callId = await newCall();
    await expect(apply(callId, { type: 'call.status', status: 'exploded' })).rejects.toMatchObject({
      status: 422,
      details: expect.stringMatching(/status/),
    });
    await expect(apply(callId, { type: 'call.answers', answers: [{ answer: 1 }] })).rejects.toMatchObject({
      status: 422,
      details: expect.stringMatching(/questionId/),
    });
    await expect(apply(callId, { type: 'call.transcript' })).rejects.toMatchObject({ status: 422 });
  });
});
