import { randomUUID } from 'node:crypto';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { encounterData, envelope, postSigned } from '../helpers/inbound.js';
import { startIsolatedTestApp, TEST_OPERATOR_KEY, type TestApp } from '../helpers/test-app.js';
import { tokenFor, type Caller } from '../helpers/tokens.js';

const OPERATOR = { 'x-api-key': TEST_OPERATOR_KEY };
type Item = { operation: string; resource_id: string | null; patient: string | null; filters: Record<string, unknown> | null };

describe('audit by patient, from the resource itself (no x-patient needed)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startIsolatedTestApp({ workers: true });
  });
  afterAll(() => t?.close());
  const events = (query: string) => request(t.app).get(`/api/v1/audit-events?${query}`).set(OPERATOR);

  it("an EHR encounter's note, transcription and run show its patient and visit; reading them without x-patient is found by that patient", async () => {
    const patient = `MRN-${randomUUID().slice(0, 8)}`;
    const visit = `V-${randomUUID().slice(0, 8)}`;
    const data = encounterData({ patient_id: patient, visit_id: visit });
    const accepted = await postSigned(t.app, 'ehr', envelope('encounter.transcript', data));
    expect(accepted.status).toBe(202);
    let pipeline: Record<string, string> = {};
    await expect
      .poll(
        async () => {
          const state = await request(t.app).get(`/api/v1/webhooks/events/${accepted.body.id}`).set(OPERATOR);
          pipeline = state.body.pipeline ?? {};
          return state.body.status;
        },
        { timeout: 60_000, interval: 200 },
      )
      .toBe('completed');

    // The doctor of the event reads the note, the transcription and the run, sending no x-patient.
    const token = await tokenFor({ sub: data.doctor_id, group_id: data.group_id });
    const doctor: Caller = {
      userId: data.doctor_id,
      groupId: data.group_id,
      doctor: data.doctor_id,
      token,
      headers: { authorization: `Bearer ${token}`, 'x-doctor': data.doctor_id },
    };
    const note = await request(t.app).get(`/v1/clinical-notes/${pipeline.note_id}`).set(doctor.headers);
    expect(note.status).toBe(200);
    expect(note.body).toMatchObject({ patient_id: patient, visit_id: visit });
    const transcription = await request(t.app).get(`/v1/transcriptions/${pipeline.transcription_id}`).set(doctor.headers);
    expect(transcription.body).toMatchObject({ patient_id: patient, visit_id: visit });
    const run = await request(t.app).get(`/v1/agent/threads/${pipeline.thread_id}/runs/${pipeline.run_id}`).set(doctor.headers);
    expect(run.body).toMatchObject({ patient_id: patient, visit_id: visit });

    let items: Item[] = [];
    await expect
      .poll(async () => (items = (await events(`patient=${patient}`)).body.items).length, { timeout: 10_000 })
      .toBeGreaterThanOrEqual(3);
    const reads = items.filter((i) => i.operation.startsWith('GET /v1/')).map((i) => [i.operation, i.resource_id]);
    expect(reads).toEqual(
      expect.arrayContaining([
        ['GET /v1/clinical-notes/:id', pipeline.note_id],
        ['GET /v1/transcriptions/:id', pipeline.transcription_id],
        ['GET /v1/agent/threads/:threadId/runs/:runId', pipeline.run_id],
      ]),
    );
  }, 90_000);

  it("another group's caller naming the note is not recorded under its patient (its row keeps the caller's x-patient, here none)", async () => {
    const patient = `MRN-${randomUUID().slice(0, 8)}`;
    const owner = { authorization: `Bearer ${await tokenFor({ sub: 'u1', group_id: `g-${randomUUID()}` })}`, 'x-doctor': 'dr-1' };
    const created = await request(t.app)
      .post('/v1/clinical-notes')
      .set({ ...owner, 'x-patient': patient })
      .send({ template: 'DAP', ai_generated_content: { data: 'd', assessment: 'a', plan: 'p' } });
    expect(created.status).toBe(201);
    expect(created.body.patient_id).toBe(patient);
    const stranger = { authorization: `Bearer ${await tokenFor({ sub: 'u2', group_id: `g-${randomUUID()}` })}`, 'x-doctor': 'dr-2' };
    expect((await request(t.app).get(`/v1/clinical-notes/${created.body.id}`).set(stranger)).status).toBe(404);
    expect((await request(t.app).get(`/v1/clinical-notes/${created.body.id}`).set(owner)).status).toBe(200);
    let items: Item[] = [];
    await expect.poll(async () => (items = (await events(`resource_id=${created.body.id}`)).body.items).length).toBe(3);
    expect(items.map((i) => i.patient)).toEqual([patient, null, patient]);
  });

  it('a read of the audit trail records its filters, and a search for a patient is found by that patient', async () => {
    const patient = `MRN-${randomUUID().slice(0, 8)}`;
    const since = '2026-01-01T00:00:00.000Z';
    expect((await events(`patient=${patient}&since=${since}&limit=5`)).status).toBe(200);
    let items: Item[] = [];
    await expect.poll(async () => (items = (await events(`patient=${patient}`)).body.items).length).toBeGreaterThanOrEqual(1);
    const search = items.find((i) => i.filters?.since === since)!;
    expect(search).toMatchObject({ operation: 'GET /api/v1/audit-events', patient, filters: { patient, since } });
    expect(search.filters).not.toHaveProperty('limit');
  });
});
