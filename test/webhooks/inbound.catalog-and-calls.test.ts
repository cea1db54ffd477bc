import { randomUUID } from 'node:crypto';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { envelope, postSigned } from '../helpers/inbound.js';
import { startTestApp, TEST_OPERATOR_KEY, type TestApp } from '../helpers/test-app.js';

const operator = { 'x-api-key': TEST_OPERATOR_KEY };

describe('inbound events that keep the catalog and update calls', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ workers: true });
  });
  afterAll(() => t.close());

  async function processed(eventId: string) {
    await expect
      .poll(async () => (await request(t.app).get(`/api/v1/webhooks/events/${eventId}`).set(operator)).body.status, { timeout: 15_000 })
      .toMatch(/completed|failed/);
    return (await request(t.app).get(`/api/v1/webhooks/events/${eventId}`).set(operator)).body;
  }

  const center = (id: string) => ({
    id,
    name: `Clínica Prueba ${id}`,
    address: { line: 'Avenida Diagonal 1', city: 'Barcelona', postalCode: '08019', country: 'ES' },
    phone: '+34932550100',
    timezone: 'Europe/Madrid',
  });

  it('upserts and deletes centers and services', async () => {
    const id = `ctr-${randomUUID().slice(0, 8)}`;
    const up = envelope('center.upserted', center(id));
    expect((await postSigned(t.app, 'ehr', up)).status).toBe(202);
    expect((await processed(up.id)).status).toBe('completed');
    const listed = await request(t.app).get('/api/v1/centers').query({ q: id }).set(operator);
    expect(listed.body.data.map((c: { id: string }) => c.id)).toEqual([id]);

    const svc = envelope('service.upserted', {
      id: `svc-${id}`,
      centerId: id,
      name: 'Cardiology consult',
      specialty: 'cardiology',
      durationMinutes: 30,
      languages: ['es'],
    });
    expect((await postSigned(t.app, 'ehr', svc)).status).toBe(202);
    expect((await processed(svc.id)).status).toBe('completed');
    const services = await request(t.app).get('/api/v1/centers/services').query({ centerId: id }).set(operator);
    expect(services.body.data).toHaveLength(1);

    const del = envelope('center.deleted', { id });
    await postSigned(t.app, 'ehr', del);
    expect((await processed(del.id)).status).toBe('completed');
    expect((await request(t.app).get('/api/v1/centers').query({ q: id }).set(operator)).body.data).toEqual([]);
  });

  it('answers 422 for catalog data that does not fit, and fails a service of an unknown center without retries', async () => {
    const bad = await postSigned(t.app, 'ehr', envelope('center.upserted', { ...center('x'), phone: '12345' }));
    expect(bad.status).toBe(422);
    expect(bad.body.details).toMatch(/phone/);
    const orphan = envelope('service.upserted', {
      id: `svc-${randomUUID()}`,
      centerId: 'no-such-center',
      name: 'X',
      specialty: 'y',
      durationMinutes: 10,
    });
    expect((await postSigned(t.app, 'ehr', orphan)).status).toBe(202);
    const state = await processed(orphan.id);
    expect(state).toMatchObject({ status: 'failed', attempts: 1 });
    expect(state.error.details).toMatch(/no-such-center/);
  });

  it('moves a call through its statuses, keeps answers and transcript, and refuses leaving completed', async () => {
    const created = await request(t.app)
      .post('/api/v1/calls/external-questionnaire')
      .set(operator)
      .send({ questionnaireId: 'phq-9', phoneNumber: '+34600111222' });
    expect(created.status).toBe(202);
    const { callId } = created.body;

    for (const [type, data] of [
      ['call.status', { callId, status: 'ringing' }],
      ['call.status', { callId, status: 'in_progress' }],
      ['call.answers', { callId, answers: [{ questionId: 'q1', answer: 2 }] }],
      ['call.transcript', { callId, transcript: 'assistant: how often ... patient: several days' }],
      ['call.status', { callId, status: 'completed' }],
    ] as const) {
      const body = envelope(type, data);
      expect((await postSigned(t.app, 'voice', body)).status).toBe(202);
      expect((await processed(body.id)).status).toBe('completed');
    }
    const call = await request(t.app).get(`/api/v1/calls/${callId}`).set(operator);
    expect(call.body).toMatchObject({ status: 'completed', answers: [{ questionId: 'q1', answer: 2 }] });
    expect(call.body.transcript).toContain('several days');

    const late = envelope('call.status', { callId, status: 'ringing' });
    await postSigned(t.app, 'voice', late);
    expect(await processed(late.id)).toMatchObject({ status: 'failed', attempts: 1 });
    expect((await request(t.app).get(`/api/v1/calls/${callId}`).set(operator)).body.status).toBe('completed');
  });

  it('answers 422 for a voice event without a valid callId or status', async () => {
    expect((await postSigned(t.app, 'voice', envelope('call.status', { status: 'ringing' }))).status).toBe(422);
    expect((await postSigned(t.app, 'voice', envelope('call.status', { callId: randomUUID(), status: 'exploded' }))).status).toBe(422);
    const unknownCall = envelope('call.status', { callId: randomUUID(), status: 'ringing' });
    expect((await postSigned(t.app, 'voice', unknownCall)).status).toBe(202);
    expect((await processed(unknownCall.id)).status).toBe('failed');
  });
});
