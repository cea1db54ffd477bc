import { randomUUID } from 'node:crypto';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { validCall } from '../calls/calls.builders.js';
import { readAuditEvents } from '../helpers/api-reads.js';
import { encounterData, envelope, integrationSignature, postSigned } from '../helpers/inbound.js';
import { startIsolatedTestApp, TEST_API_KEYS, TEST_OPERATOR_KEY, type TestApp } from '../helpers/test-app.js';

const OPERATOR = { 'x-api-key': TEST_OPERATOR_KEY };

describe('inbound integrations: own secrets, bound to groups', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startIsolatedTestApp();
  });
  afterAll(() => t?.close());

  const createIntegration = async (body: Record<string, unknown>) => {
    const res = await request(t.app).post('/api/v1/integrations').set(OPERATOR).send(body);
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return res.body as { id: string; secret: string; group_ids: string[] };
  };
  const post = (source: 'ehr' | 'voice', integrationId: string, secret: string, body: unknown) => {
    const raw = JSON.stringify(body);
    return request(t.app)
      .post(`/api/v1/webhooks/${source}/${integrationId}`)
      .set('content-type', 'application/json')
      .set('x-integration-signature', integrationSignature(secret, raw))
      .send(raw);
  };
  // SQL: the events API does not show which integration sent an event.
  const stored = async (eventId: string) =>
    (await t.deps.pool.query(`SELECT integration_id, group_id FROM inbound_events WHERE event_id = $1`, [eventId])).rows;

  it('creates one (secret shown once, stored sealed), lists it without the secret, revokes it', async () => {
    const groups = [`group-${randomUUID()}`, `group-${randomUUID()}`];
    const created = await createIntegration({ name: 'St. Mary EHR', source: 'ehr', group_ids: groups });
    expect(created).toEqual({
      id: expect.any(String),
      name: 'St. Mary EHR',
      source: 'ehr',
      group_ids: groups,
      sending_application: null,
      sending_facility: null,
      allowed_ips: null,
      tls_client_fingerprint: null,
      facility_groups: null,
      identifier_systems: null,
      created_at: expect.any(String),
      secret: expect.stringMatching(/^whsec_[A-Za-z0-9+/]{43}=$/),
    });
    // SQL: the guarantee is that the secret is sealed at rest (the API shows it only once, at creation).
    const row = (await t.deps.pool.query(`SELECT secret FROM integrations WHERE id = $1`, [created.id])).rows[0];
    expect(row.secret).toMatch(/^enc:v2:[0-9a-f]{8}:/);
    const list = await request(t.app).get('/api/v1/integrations').set(OPERATOR);
    expect(list.body.find((i: { id: string }) => i.id === created.id)).toMatchObject({ name: 'St. Mary EHR', group_ids: groups });
    expect(JSON.stringify(list.body)).not.toContain('whsec_');
    expect(JSON.stringify(list.body)).not.toContain('enc:v');
    expect((await request(t.app).delete(`/api/v1/integrations/${created.id}`).set(OPERATOR)).status).toBe(204);
    expect((await request(t.app).delete(`/api/v1/integrations/${created.id}`).set(OPERATOR)).status).toBe(404);
    expect((await request(t.app).get('/api/v1/integrations').set(OPERATOR)).body.some((i: { id: string }) => i.id === created.id)).toBe(
      false,
    );
  });

  it('accepts an event for a bound group signed with the own secret, and refuses other groups with 403, storing nothing', async () => {
    const group = `group-${randomUUID()}`;
    const ehr = await createIntegration({ name: 'EHR A', source: 'ehr', group_ids: [group] });
    const ok = envelope('encounter.transcript', encounterData({ group_id: group }));
    const res = await post('ehr', ehr.id, ehr.secret, ok);
    expect(res.status).toBe(202);
    expect(await stored(ok.id)).toEqual([{ integration_id: ehr.id, group_id: group }]);
    // Its audit row names the integration.
    await expect
      .poll(async () => (await readAuditEvents(t.app, { resource_id: ok.id })).map((r) => r.user))
      .toEqual([`integration:${ehr.id}`]);
    // The same id again is a duplicate of its own event.
    expect((await post('ehr', ehr.id, ehr.secret, ok)).body).toMatchObject({ duplicate: true });

    const foreign = envelope('encounter.transcript', encounterData());
    const refused = await post('ehr', ehr.id, ehr.secret, foreign);
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({ success: false, error: 'Forbidden' });
    expect(await stored(foreign.id)).toEqual([]);
    // Catalog events have no group: only the deployment-wide sender may send them.
    const catalog = envelope('center.deleted', { id: 'c-1' });
    expect((await post('ehr', ehr.id, ehr.secret, catalog)).status).toBe(403);
  });

  it("keeps its event ids apart from the shared sender's: the same id is two events", async () => {
    const group = `group-${randomUUID()}`;
    const ehr = await createIntegration({ name: 'EHR B', source: 'ehr', group_ids: [group] });
    const body = envelope('encounter.transcript', encounterData({ group_id: group }));
    expect((await postSigned(t.app, 'ehr', body)).status).toBe(202);
    expect((await post('ehr', ehr.id, ehr.secret, body)).status).toBe(202);
    expect(await stored(body.id)).toHaveLength(2);
  });

  it("answers 401 for a wrong signature, the shared secret, an unknown, a revoked or another source's integration", async () => {
    const group = `group-${randomUUID()}`;
    const ehr = await createIntegration({ name: 'EHR C', source: 'ehr', group_ids: [group] });
    const body = envelope('encounter.transcript', encounterData({ group_id: group }));
    expect((await post('ehr', ehr.id, 'whsec_wrong', body)).status).toBe(401);
    expect((await post('ehr', ehr.id, 'test-ehr-webhook-secret', body)).status).toBe(401);
    expect((await post('ehr', randomUUID(), ehr.secret, body)).status).toBe(401);
    expect((await post('ehr', 'not-a-uuid', ehr.secret, body)).status).toBe(401);
    expect((await post('voice', ehr.id, ehr.secret, body)).status).toBe(401);
    await request(t.app).delete(`/api/v1/integrations/${ehr.id}`).set(OPERATOR);
    const revoked = await post('ehr', ehr.id, ehr.secret, body);
    expect(revoked.status).toBe(401);
    expect(revoked.body).toEqual({ success: false, error: 'Unauthorized', details: expect.stringMatching(/revoked/) });
    expect(await stored(body.id)).toEqual([]);
  });

  it('binds a voice integration to the groups of the calls it updates', async () => {
    const group = `group-${randomUUID()}`;
    const voice = await createIntegration({ name: 'Voice A', source: 'voice', group_ids: [group] });
    const mine = await request(t.app).post('/api/v1/calls/external-questionnaire').set(OPERATOR).send(validCall());
    // A call of the integration's group (the voice API makes calls of no group; a group's own calls carry one).
    await t.deps.pool.query(`UPDATE calls SET group_id = $1 WHERE id = $2`, [group, mine.body.callId]);
    const other = await request(t.app).post('/api/v1/calls/external-questionnaire').set(OPERATOR).send(validCall());
    const status = (callId: string) => envelope('call.status', { callId, status: 'ringing' });
    expect((await post('voice', voice.id, voice.secret, status(mine.body.callId))).status).toBe(202);
    expect((await post('voice', voice.id, voice.secret, status(other.body.callId))).status).toBe(403);
    expect((await post('voice', voice.id, voice.secret, status(randomUUID()))).status).toBe(403);
  });

  it('validates the body (400), needs an operator key (voice key 403), and takes hl7 senders with MSH-3 and MSH-4', async () => {
    for (const body of [
      {},
      { name: 'x', source: 'fax', group_ids: ['g'] },
      { name: 'x', source: 'ehr', group_ids: [] },
      { name: 'x', source: 'ehr', group_ids: ['g'], extra: 1 },
      { name: 'x', source: 'hl7', group_ids: ['g'] },
      { name: 'x', source: 'hl7', group_ids: ['g'], sending_application: 'A', sending_facility: 'B' },
      { name: 'x', source: 'ehr', group_ids: ['g'], allowed_ips: ['10.0.0.1'] },
    ]) {
      const res = await request(t.app).post('/api/v1/integrations').set(OPERATOR).send(body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body).toMatchObject({ success: false, error: 'Bad Request' });
    }
    expect(
      (
        await request(t.app)
          .post('/api/v1/integrations')
          .set('x-api-key', TEST_API_KEYS[0])
          .send({ name: 'x', source: 'ehr', group_ids: ['g'] })
      ).status,
    ).toBe(403);
    expect((await request(t.app).get('/api/v1/integrations').set('x-api-key', TEST_API_KEYS[0])).status).toBe(403);
    const hl7 = await createIntegration({
      name: 'Lab',
      source: 'hl7',
      group_ids: ['g'],
      sending_application: 'LABSYS',
      sending_facility: 'STMARY',
      allowed_ips: ['10.20.0.0/16'],
    });
    expect(hl7).toMatchObject({ source: 'hl7', sending_application: 'LABSYS', sending_facility: 'STMARY', allowed_ips: ['10.20.0.0/16'] });
  });
});
