import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readAuditByClientRequestId } from '../helpers/api-reads.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';
import { newCaller } from '../helpers/tokens.js';

/** The rows a client's x-request-id left since the file started (the audit trail as the API shows it). */
const since = new Date().toISOString();
const auditRows = (t: TestApp, requestId: string) => readAuditByClientRequestId(t.app, requestId, since);

async function eventually<T>(fn: () => Promise<T[]>, count = 1): Promise<T[]> {
  for (let i = 0; i < 50; i++) {
    const rows = await fn();
    if (rows.length >= count) return rows;
    await new Promise((r) => setTimeout(r, 20));
  }
  return fn();
}

describe('audit log', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  it('writes who, what, which resource and the outcome, with no transcript text', async () => {
    const caller = await newCaller();
    const marker = `PHI-MARKER-${Date.now()}`;
    const res = await request(t.app)
      .post('/v1/transcriptions/create')
      .set({ ...caller.headers, 'x-patient': 'patient-77', 'x-request-id': `audit-${marker}` })
      .send({ duration_seconds: 1, original_transcript: `the patient said ${marker}` });
    expect(res.status).toBe(201);
    const rows = await eventually(() => auditRows(t, `audit-${marker}`));
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      user: caller.userId,
      group_id: caller.groupId,
      doctor: caller.doctor,
      patient: 'patient-77',
      operation: 'POST /v1/transcriptions/create',
      resource_id: res.body.transcription.id,
      status: 201,
    });
    // SQL: the guarantee is over every stored row of the table, which no API lists whole.
    const all = await t.deps.pool.query(`SELECT * FROM audit_log`);
    expect(JSON.stringify(all.rows)).not.toContain('the patient said');
  });

  it('records refused requests too', async () => {
    await request(t.app).post('/v1/agent/threads').set('x-request-id', 'audit-refused-1').send({});
    const rows = await eventually(() => auditRows(t, 'audit-refused-1'));
    expect(rows[0]).toMatchObject({ status: 401, user: null, operation: 'POST /v1/agent/threads' });
  });

  it('covers the API, not the open health check', async () => {
    await request(t.app).get('/api/v1/health').set('x-request-id', 'audit-health-1');
    await request(t.app).post('/V1/agent/threads').set('x-request-id', 'audit-upper-1').send({});
    // Express routes ignore case, and so does the audit: the refused call above is recorded.
    expect(await eventually(() => auditRows(t, 'audit-upper-1'))).toHaveLength(1);
    expect(await auditRows(t, 'audit-health-1')).toHaveLength(0);
  });

  it('cannot be changed or deleted', async () => {
    await expect(t.deps.pool.query(`UPDATE audit_log SET status = 200`)).rejects.toThrow(/append-only/);
    await expect(t.deps.pool.query(`DELETE FROM audit_log`)).rejects.toThrow(/append-only/);
  });
});
