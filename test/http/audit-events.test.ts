import { randomUUID } from 'node:crypto';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startIsolatedTestApp, TEST_OPERATOR_KEY, type TestApp } from '../helpers/test-app.js';
import { newCaller } from '../helpers/tokens.js';
import { newNote } from '../notes/notes.builders.js';

const OPERATOR = { 'x-api-key': TEST_OPERATOR_KEY };

describe('operator audit API: GET /api/v1/audit-events', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startIsolatedTestApp();
  });
  afterAll(() => t?.close());
  const events = (query: string) => request(t.app).get(`/api/v1/audit-events?${query}`).set(OPERATOR);

  it('finds who read a note: by resource, patient, user and group, newest first, with both request ids', async () => {
    const caller = await newCaller();
    const note = await newNote(t, caller);
    const patient = `pat-${randomUUID()}`;
    for (const n of [1, 2]) {
      await request(t.app)
        .get(`/v1/clinical-notes/${note.id}`)
        .set({ ...caller.headers, 'x-patient': patient, 'x-request-id': `client-read-${n}` });
    }
    let items: Array<Record<string, unknown>> = [];
    await expect.poll(async () => (items = (await events(`resource_id=${note.id}`)).body.items).length).toBe(3);
    expect(items.map((i) => i.operation)).toEqual(['GET /v1/clinical-notes/:id', 'GET /v1/clinical-notes/:id', 'POST /v1/clinical-notes']);
    expect(items[0]).toEqual({
      id: expect.any(String),
      at: expect.any(String),
      user: caller.userId,
      group_id: caller.groupId,
      doctor: caller.doctor,
      patient,
      operation: 'GET /v1/clinical-notes/:id',
      resource_id: note.id,
      status: 200,
      request_id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      client_request_id: 'client-read-2',
      filters: null,
    });
    expect(items[1].client_request_id).toBe('client-read-1');
    expect(items[0].request_id).not.toBe(items[1].request_id);
    expect(Date.parse(items[0].at as string)).toBeGreaterThanOrEqual(Date.parse(items[1].at as string));

    expect((await events(`patient=${patient}`)).body.items).toHaveLength(2);
    expect((await events(`user=${caller.userId}&limit=1`)).body.items).toHaveLength(1);
    expect((await events(`group_id=${caller.groupId}`)).body.items).toHaveLength(3);
    expect((await events(`group_id=${caller.groupId}&since=${new Date(Date.now() + 60_000).toISOString()}`)).body.items).toHaveLength(0);
    expect((await events(`group_id=${caller.groupId}&until=${new Date(Date.now() - 3_600_000).toISOString()}`)).body.items).toHaveLength(0);
  });

  it('keeps a service-made request id even when the client sends the same x-request-id twice', async () => {
    const caller = await newCaller();
    for (let i = 0; i < 2; i++)
      await request(t.app)
        .post('/v1/agent/threads')
        .set({ ...caller.headers, 'x-request-id': 'same-id' })
        .send({});
    let items: Array<Record<string, unknown>> = [];
    await expect.poll(async () => (items = (await events(`user=${caller.userId}`)).body.items).length).toBe(2);
    expect(new Set(items.map((i) => i.request_id)).size).toBe(2);
    expect(items.map((i) => i.client_request_id)).toEqual(['same-id', 'same-id']);
  });

  it('validates its filters (400) and caps limit at 1000', async () => {
    for (const q of ['limit=0', 'limit=1001', 'since=yesterday', 'until=2026-13-01', 'resource_id=%00']) {
      const res = await events(q);
      expect(res.status, q).toBe(400);
      expect(res.body).toMatchObject({ success: false, error: 'Bad Request' });
    }
    expect((await events('limit=1000')).status).toBe(200);
  });

  it('is audited itself, under the operator key name', async () => {
    await request(t.app)
      .get('/api/v1/audit-events?limit=1')
      .set({ ...OPERATOR, 'x-request-id': 'audit-of-audit' });
    await expect
      .poll(async () =>
        (await events('user=ops-test')).body.items.some((i: Record<string, unknown>) => i.client_request_id === 'audit-of-audit'),
      )
      .toBe(true);
  });
});
