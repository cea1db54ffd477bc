import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CodeAssessment } from '../../src/engine/engine.js';
import { STARTER_CATALOG } from '../../src/terminology/starter-catalog.js';
import { newCaller, type Caller } from '../helpers/tokens.js';
import { ASSESSMENT, codify, startCodifyApp, type CodifyApp } from '../helpers/codify-app.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

describe('POST /v1/codify and GET /v1/codify/{runId}', () => {
  let t: CodifyApp;
  let caller: Caller;
  beforeAll(async () => {
    t = await startCodifyApp('codify_api');
    caller = await newCaller();
  });
  afterAll(() => t.close());

  const codes = (list: CodeAssessment[]) => list.map((a) => a.code);

  it('answers 200 with final and discarded assessments and a run id', async () => {
    const res = await codify(t, caller, { medical_note: 'Patient with HTN on lisinopril. T2DM, diet controlled.' });
    expect(res.status).toBe(200);
    expect(Object.keys(res.body).sort()).toEqual(['discarded_code_assessments', 'final_code_assessments', 'run_id']);
    expect(res.body.run_id).toMatch(UUID);
    expect(codes(res.body.final_code_assessments)).toEqual(expect.arrayContaining(['I10', 'E11.9']));
    for (const a of [...res.body.final_code_assessments, ...res.body.discarded_code_assessments]) {
      expect(a).toEqual(ASSESSMENT);
      expect(a.confidence_percent).toBeGreaterThanOrEqual(0);
      expect(a.confidence_percent).toBeLessThanOrEqual(100);
      // Every code is in the loaded table, with its official title.
      expect(t.codeTables.current().get(a.code)?.description, a.code).toBe(a.description);
    }
    const i10 = res.body.final_code_assessments.find((a: CodeAssessment) => a.code === 'I10');
    expect(i10.description).toBe('Essential (primary) hypertension');
  });

  it('a fresh install (no ICD10CM_FILE, nothing imported) codes from the shipped FY2026 table, beyond any starter list', async () => {
    expect(t.codeTables.source).toBe('shipped');
    const res = await codify(t, caller, { medical_note: 'Merkel cell carcinoma of lip, excised last week.' });
    expect(res.status).toBe(200);
    const merkel = res.body.final_code_assessments.find((a: CodeAssessment) => a.code === 'C4A.0');
    expect(merkel?.description).toBe('Merkel cell carcinoma of lip');
    expect(STARTER_CATALOG.some(([code]) => code === 'C4A.0')).toBe(false);
  });

  it.each(['fast', 'balanced', 'high-quality'])('accepts model %s', async (model) => {
    const res = await codify(t, caller, { medical_note: 'Known hypertension, well controlled.', model });
    expect(res.status).toBe(200);
    expect(codes(res.body.final_code_assessments)).toContain('I10');
  });

  it('discards negated findings with the reason', async () => {
    const res = await codify(t, caller, { medical_note: 'Patient denies chest pain. No evidence of pneumonia on the chest film.' });
    expect(res.status).toBe(200);
    expect(codes(res.body.final_code_assessments)).not.toContain('R07.9');
    expect(codes(res.body.final_code_assessments)).not.toContain('J18.9');
    const r079 = res.body.discarded_code_assessments.find((a: CodeAssessment) => a.code === 'R07.9');
    expect(r079?.justification).toMatch(/negated/i);
  });

  it('discards family history', async () => {
    const res = await codify(t, caller, { medical_note: 'Family history of type 2 diabetes. Mother had breast cancer.' });
    expect(res.status).toBe(200);
    // Only family-history status codes (Z80-Z84), never the relative's condition as the patient's.
    for (const code of codes(res.body.final_code_assessments)) expect(code).toMatch(/^Z8[0-4]/);
    const e119 = res.body.discarded_code_assessments.find((a: CodeAssessment) => a.code === 'E11.9');
    expect(e119?.justification).toMatch(/family history/i);
  });

  it('discards hypothetical and rule-out diagnoses', async () => {
    const res = await codify(t, caller, { medical_note: 'Rule out pneumonia. Cough for three days.' });
    expect(res.status).toBe(200);
    expect(codes(res.body.final_code_assessments)).not.toContain('J18.9');
    const j189 = res.body.discarded_code_assessments.find((a: CodeAssessment) => a.code === 'J18.9');
    expect(j189?.justification).toMatch(/hypothetical|rule/i);
  });

  it('stores the codification: GET returns it to the same group, 404 to another and for a non-UUID', async () => {
    const res = await codify(t, caller, { medical_note: 'Essential hypertension.' });
    const got = await request(t.app).get(`/v1/codify/${res.body.run_id}`).set(caller.headers);
    expect(got.status).toBe(200);
    expect(got.body).toMatchObject({
      run_id: res.body.run_id,
      status: 'completed',
      model: 'balanced',
      final_code_assessments: res.body.final_code_assessments,
      discarded_code_assessments: res.body.discarded_code_assessments,
      error: null,
    });
    expect(got.body.created_at).toMatch(/Z$/);
    const other = await newCaller();
    const hidden = await request(t.app).get(`/v1/codify/${res.body.run_id}`).set(other.headers);
    expect(hidden.status).toBe(404);
    expect(hidden.body).toEqual({ success: false, error: 'Not Found', details: `Codification ${res.body.run_id} not found` });
    const bad = await request(t.app).get('/v1/codify/not-a-uuid').set(caller.headers);
    expect(bad.status).toBe(404);
    expect(bad.body.error).toBe('Not Found');
  });

  it('keeps no note text once done, and records codify.completed with ids, counts and codes only', async () => {
    const marker = `MARKER${Date.now()}`;
    const res = await codify(t, caller, { medical_note: `Hypertension. Patient name ${marker}.` });
    expect(res.status).toBe(200);
    // SQL: the guarantee is that the note text is not stored once done (no API shows the stored text, or the doctor).
    const { rows } = await t.deps.pool.query(`SELECT input_text, status, doctor_id FROM codify_runs WHERE id = $1`, [res.body.run_id]);
    expect(rows[0]).toEqual({ input_text: null, status: 'completed', doctor_id: caller.doctor });
    // SQL: the outbox has no read API (its events are only seen delivered, by an endpoint's receiver).
    const events = await t.deps.pool.query(`SELECT type, group_id, data FROM outbox WHERE data->>'codify_run_id' = $1`, [res.body.run_id]);
    expect(events.rows).toHaveLength(1);
    expect(events.rows[0]).toMatchObject({ type: 'codify.completed', group_id: caller.groupId });
    expect(events.rows[0].data).toMatchObject({
      codify_run_id: res.body.run_id,
      final_count: res.body.final_code_assessments.length,
      final_codes: codes(res.body.final_code_assessments),
    });
    expect(JSON.stringify(events.rows[0].data)).not.toContain(marker);
    expect(JSON.stringify(events.rows[0].data)).not.toMatch(/justification/);
  });

  it('answers 401 without a token, before the missing x-doctor', async () => {
    const res = await request(t.app).post('/v1/codify').send({ medical_note: 'HTN' });
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ success: false, error: 'Unauthorized', details: expect.any(String) });
  });

  it('answers 400 without x-doctor', async () => {
    const res = await request(t.app).post('/v1/codify').set({ authorization: caller.headers.authorization }).send({ medical_note: 'HTN' });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ success: false, error: 'Bad Request', details: expect.stringMatching(/x-doctor/) });
  });
});
