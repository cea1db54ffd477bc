import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../helpers/test-app.js';
import { newCaller, type Caller } from '../helpers/tokens.js';
import { dap, newLinks, newNote, patchNote, postNote, soap } from './notes.builders.js';

// FHIR R4 DocumentReference (hl7.org/fhir/R4/documentreference.html): its elements and value sets.
const R4_ELEMENTS = [
  'resourceType',
  'id',
  'meta',
  'implicitRules',
  'language',
  'text',
  'contained',
  'extension',
  'modifierExtension',
  'masterIdentifier',
  'identifier',
  'status',
  'docStatus',
  'type',
  'category',
  'subject',
  'date',
  'author',
  'authenticator',
  'custodian',
  'relatesTo',
  'description',
  'securityLabel',
  'content',
  'context',
];
const CONTEXT_ELEMENTS = ['encounter', 'event', 'period', 'facilityType', 'practiceSetting', 'sourcePatientInfo', 'related'];
const ATTACHMENT_ELEMENTS = ['contentType', 'language', 'data', 'url', 'size', 'hash', 'title', 'creation'];
const REFERENCE_ELEMENTS = ['reference', 'type', 'identifier', 'display'];
const DOCUMENT_REFERENCE_STATUS = ['current', 'superseded', 'entered-in-error'];
const COMPOSITION_STATUS = ['preliminary', 'final', 'amended', 'entered-in-error'];
const FHIR_ID = /^[A-Za-z0-9\-.]{1,64}$/;
const FHIR_INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

function keysWithin(obj: object, allowed: string[]) {
  expect(Object.keys(obj).filter((k) => !allowed.includes(k))).toEqual([]);
}

/** The R4 rules a DocumentReference must meet (cardinality, value sets, primitive formats). */
function expectR4DocumentReference(doc: Record<string, any>) {
  expect(doc.resourceType).toBe('DocumentReference');
  keysWithin(doc, R4_ELEMENTS);
  expect(doc.id).toMatch(FHIR_ID);
  expect(doc.meta.versionId).toMatch(FHIR_ID);
  expect(doc.meta.lastUpdated).toMatch(FHIR_INSTANT);
  expect(DOCUMENT_REFERENCE_STATUS).toContain(doc.status);
  expect(COMPOSITION_STATUS).toContain(doc.docStatus);
  expect(doc.date).toMatch(FHIR_INSTANT);
  expect(Array.isArray(doc.content) && doc.content.length).toBeGreaterThan(0);
  for (const c of doc.content) {
    expect(c.attachment).toBeTypeOf('object');
    keysWithin(c.attachment, ATTACHMENT_ELEMENTS);
    expect(c.attachment.data).toMatch(BASE64);
  }
  for (const ref of [doc.subject, ...(doc.author ?? []), ...(doc.context?.related ?? [])].filter(Boolean)) {
    keysWithin(ref, REFERENCE_ELEMENTS);
    expect(ref.reference ?? ref.identifier ?? ref.display).toBeDefined();
  }
  if (doc.context) keysWithin(doc.context, CONTEXT_ELEMENTS);
}

const decode = (doc: Record<string, any>) => Buffer.from(doc.content[0].attachment.data, 'base64').toString('utf8');

describe('GET /v1/clinical-notes/{id}/fhir', () => {
  let t: TestApp;
  let caller: Caller;
  beforeAll(async () => {
    t = await startTestApp();
    caller = await newCaller();
  });
  afterAll(() => t.close());

  it('answers a valid R4 DocumentReference as application/fhir+json', async () => {
    const {
      transcriptionId,
      threadId,
      runIds: [runId],
    } = await newLinks(t, caller);
    const created = await postNote(
      t,
      caller,
      { transcription_id: transcriptionId, report_thread_id: threadId, report_run_id: [runId] },
      { 'x-patient': 'MRN-00042' },
    );
    const res = await request(t.app).get(`/v1/clinical-notes/${created.body.id}/fhir`).set(caller.headers);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/fhir\+json/);
    expect(res.headers.etag).toBe('W/"1"');
    const doc = res.body;
    expectR4DocumentReference(doc);
    expect(doc).toMatchObject({
      id: created.body.id,
      meta: { versionId: '1', lastUpdated: created.body.updated_at },
      status: 'current',
      docStatus: 'preliminary',
      type: { coding: [{ system: 'http://loinc.org', code: '11506-3', display: 'Progress note' }] },
      subject: { type: 'Patient', identifier: { value: 'MRN-00042' } },
      author: [{ type: 'Practitioner', identifier: { value: caller.doctor } }],
      date: created.body.updated_at,
      content: [{ attachment: { contentType: 'text/plain; charset=utf-8', title: expect.any(String) } }],
    });
    const related = doc.context.related.map((r: { identifier: { value: string; type: { text: string } } }) => [
      r.identifier.type.text,
      r.identifier.value,
    ]);
    expect(related).toEqual([
      ['transcription', `urn:uuid:${transcriptionId}`],
      ['thread', `urn:uuid:${threadId}`],
      ['run', `urn:uuid:${runId}`],
    ]);
    const s = soap();
    expect(decode(doc)).toBe(`SUBJECTIVE\n${s.subjective}\n\nOBJECTIVE\n${s.objective}\n\nASSESSMENT\n${s.assessment}\n\nPLAN\n${s.plan}`);
  });

  it('follows the current version: sections of the new template, date and versionId', async () => {
    const note = await newNote(t, caller);
    const patched = await patchNote(t, caller, note.id, {
      template: 'DAP',
      ai_generated_content: { ...dap(), data: 'Niño con fiebre — 38,5 °C' },
    });
    const res = await request(t.app).get(`/v1/clinical-notes/${note.id}/fhir`).set(caller.headers);
    expectR4DocumentReference(res.body);
    expect(res.body.meta.versionId).toBe('2');
    expect(res.body.date).toBe(patched.body.updated_at);
    expect(decode(res.body)).toBe(`DATA\nNiño con fiebre — 38,5 °C\n\nASSESSMENT\n${dap().assessment}\n\nPLAN\n${dap().plan}`);
  });

  it('leaves subject and context out when the note has no patient and no links', async () => {
    const note = await newNote(t, caller);
    const res = await request(t.app).get(`/v1/clinical-notes/${note.id}/fhir`).set(caller.headers);
    expectR4DocumentReference(res.body);
    expect(res.body.subject).toBeUndefined();
    expect(res.body.context).toBeUndefined();
    expect(res.body.author).toEqual([{ type: 'Practitioner', identifier: { value: caller.doctor } }]);
  });

  it('answers 404 with the spec body for an unknown note', async () => {
    const res = await request(t.app).get('/v1/clinical-notes/5e0c7c38-8a3b-4d1c-9f7e-222222222222/fhir').set(caller.headers);
    expect(res.status).toBe(404);
    expect(res.body).toEqual({
      success: false,
      error: 'Not Found',
      details: 'Clinical note 5e0c7c38-8a3b-4d1c-9f7e-222222222222 not found',
    });
  });
});
