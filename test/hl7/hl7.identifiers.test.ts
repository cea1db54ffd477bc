import { generateKeyPairSync, randomUUID } from 'node:crypto';
import type { Condition, DocumentReference } from '@medplum/fhirtypes';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrate } from '../../src/db/migrate.js';
import { HOUSEKEEPING_QUEUE } from '../../src/modules/housekeeping/housekeeping.job.js';
import { startMllpListener, type MllpListener } from '../../src/modules/hl7/mllp-listener.js';
import { findInboundEvent, readInboundEvent } from '../helpers/api-reads.js';
import { isolatedDatabase } from '../helpers/receiver.js';
import { startTestApp, TEST_OPERATOR_KEY, type TestApp } from '../helpers/test-app.js';
import { newCaller } from '../helpers/tokens.js';
import { patchNote } from '../notes/notes.builders.js';
import { signNote } from '../notes/signoff.builders.js';
import { FhirStandIn } from './fhir-stand-in.js';
import { adtA04, mdmT02, type Hl7Sender } from './hl7.builders.js';
import { MllpDestination } from './mllp-destination.js';
import { ackCode, ackError, MllpPeer } from './mllp-peer.js';

const OPERATOR = { 'x-api-key': TEST_OPERATOR_KEY };
const tag = () => randomUUID().slice(0, 6);

/**
 * DESIGN 2026-11-26 "routing and identifiers", end to end: an Epic-style MDM^T02 (PV1-3.4 the
 * hospital's own facility, PID-3 with its assigning authority) in over MLLP, the pipeline, and the
 * note out to the group's HL7 and FHIR destinations, identifiers in their namespace.
 */
describe('HL7 routing and identifiers', () => {
  let db: Awaited<ReturnType<typeof isolatedDatabase>>;
  let t: TestApp;
  let mllp: MllpListener;
  let dest: MllpDestination;
  let fhir: FhirStandIn;
  const single: Hl7Sender = { app: 'EPIC', facility: `GENHOSP-${tag()}` };
  const multi: Hl7Sender = { app: 'EPIC', facility: `NETWORK-${tag()}` };
  const group = `group-${randomUUID()}`;
  const [north, south] = [`group-${randomUUID()}`, `group-${randomUUID()}`];

  const integration = async (body: Record<string, unknown>) => {
    const res = await request(t.app)
      .post('/api/v1/integrations')
      .set(OPERATOR)
      .send({ source: 'hl7', allowed_ips: ['127.0.0.1'], ...body });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
  };
  const eventOf = (controlId: string) => findInboundEvent(t.app, controlId, 'hl7');
  // SQL: what is stored of a message (its parsed data) is the point here, and the API never shows an event's data.
  const dataOf = async (controlId: string) =>
    (await t.deps.pool.query(`SELECT data FROM inbound_events WHERE source = 'hl7' AND event_id = $1`, [controlId])).rows[0].data;

  beforeAll(async () => {
    db = await isolatedDatabase();
    t = await startTestApp({ env: { DATABASE_URL: db.url }, workers: true });
    await integration({
      name: 'GENHOSP Epic',
      group_ids: [group],
      sending_application: single.app,
      sending_facility: single.facility,
      identifier_systems: { GENHOSP: 'urn:oid:2.16.840.1.113883.3.999.1' },
    });
    await integration({
      name: 'Network Epic',
      group_ids: [north, south],
      sending_application: multi.app,
      sending_facility: multi.facility,
      facility_groups: { NORTHCLINIC: north, SOUTHCLINIC: south },
    });
    mllp = await startMllpListener(t.deps, { host: '127.0.0.1', port: 0 });
    dest = await MllpDestination.start();
    const pair = generateKeyPairSync('ec', { namedCurve: 'secp384r1' });
    const clientId = `clinigate-${tag()}`;
    fhir = await new FhirStandIn(clientId, pair.publicKey).start();
    for (const body of [
      { kind: 'hl7-mllp', url: dest.url, group_id: group, receiving_application: 'EPIC-IB', receiving_facility: 'GENHOSP' },
      {
        kind: 'fhir',
        url: fhir.base,
        group_id: group,
        auth: { token_url: fhir.tokenUrl, client_id: clientId, private_key: pair.privateKey.export({ format: 'pem', type: 'pkcs8' }) },
      },
    ]) {
      const res = await request(t.app).post('/api/v1/webhook-endpoints').set(OPERATOR).send(body);
      expect(res.status, JSON.stringify(res.body)).toBe(201);
    }
  });
  afterAll(async () => {
    await mllp?.stop(1_000);
    await dest?.stop();
    await fhir?.stop();
    await t?.close();
    await db?.drop();
  });

  it("takes PV1-3.4 with the hospital's facility for a one-group sender; maps it through facility_groups for several", async () => {
    const peer = await MllpPeer.connect(mllp.port);
    const epic = mdmT02(single, { facility: 'GENHOSP' });
    expect(ackCode(await peer.send(epic.text))).toBe('AA');
    expect((await eventOf(epic.controlId)).group_id).toBe(group);
    const southern = adtA04(multi, { facility: 'SOUTHCLINIC' });
    expect(ackCode(await peer.send(southern.text))).toBe('AA');
    expect((await eventOf(southern.controlId)).group_id).toBe(south);
    const unmapped = adtA04(multi, { facility: 'EASTCLINIC' });
    const ack = await peer.send(unmapped.text);
    expect(ackCode(ack)).toBe('AR');
    expect(ackError(ack)).toMatch(/103.*PV1\^1\^3|PV1\^1\^3.*103/);
    expect(await eventOf(unmapped.controlId)).toBeUndefined();
    peer.close();
  });

  it("keeps PID-3's assigning authority: back out in PID-3 (with MSH-5/MSH-6 from the endpoint) and as the FHIR identifier system", async () => {
    const patient = `MRN-${tag()}`;
    const peer = await MllpPeer.connect(mllp.port);
    const msg = mdmT02(single, { patient, facility: 'GENHOSP' });
    expect(ackCode(await peer.send(msg.text.replace(`${patient}^^^HOSP^MR`, `${patient}^^^GENHOSP^MR`)))).toBe('AA');
    peer.close();
    expect(await dataOf(msg.controlId)).toMatchObject({
      patient_id: patient,
      patient_authority: 'GENHOSP',
      patient_system: 'urn:oid:2.16.840.1.113883.3.999.1',
    });
    const out = () => dest.of('MDM^T02').find((r) => r.message.getSegment('PID')!.getComponent(3, 1) === patient);
    await expect.poll(() => out() !== undefined, { timeout: 45_000, interval: 100 }).toBe(true);
    const mdm = out()!.message;
    expect(mdm.getSegment('PID')!.getField(3).toString()).toBe(`${patient}^^^GENHOSP^MR`);
    expect(mdm.header.getField(5).toString()).toBe('EPIC-IB');
    expect(mdm.header.getField(6).toString()).toBe('GENHOSP');
    const doc = () => fhir.ofType<DocumentReference>('DocumentReference').find((d) => d.subject?.identifier?.value === patient);
    await expect.poll(() => doc() !== undefined, { timeout: 30_000, interval: 100 }).toBe(true);
    expect(doc()!.subject!.identifier).toEqual({ system: 'urn:oid:2.16.840.1.113883.3.999.1', value: patient });
  }, 60_000);

  /** Sends an MDM^T02 whose PID-3 names the GENHOSP assigning authority, and waits for its note. */
  async function receiveWithAuthority(patient: string): Promise<{ controlId: string; noteId: string }> {
    const peer = await MllpPeer.connect(mllp.port);
    const msg = mdmT02(single, { patient, facility: 'GENHOSP' });
    expect(ackCode(await peer.send(msg.text.replace(`${patient}^^^HOSP^MR`, `${patient}^^^GENHOSP^MR`)))).toBe('AA');
    peer.close();
    const readyNote = async () => {
      const { pipeline } = await readInboundEvent(t.app, msg.controlId, 'hl7');
      return pipeline.note_ready ? (pipeline.note_id as string) : undefined;
    };
    await expect.poll(readyNote, { timeout: 45_000, interval: 100 }).toBeDefined();
    return { controlId: msg.controlId, noteId: (await readyNote())! };
  }

  it('keeps the authority on sign-off: MDM^T04, ADT^A08 and MDM^T08 carry it in PID-3, the signed DocumentReference and Conditions as the identifier system', async () => {
    const patient = 'MRN-0099';
    const system = 'urn:oid:2.16.840.1.113883.3.999.1';
    const poll = { timeout: 45_000, interval: 100 };
    const { noteId } = await receiveWithAuthority(patient);
    const caller = await newCaller(group);
    const current = await request(t.app).get(`/v1/clinical-notes/${noteId}`).set(caller.headers);
    expect(current.status).toBe(200);

    const signed = await signNote(t, caller, noteId, { codes: ['E11.9'] }, { 'if-match': current.headers.etag });
    expect(signed.status, JSON.stringify(signed.body)).toBe(200);
    const ofPatient = (type: string) => dest.of(type).filter((r) => r.message.getSegment('PID')!.getComponent(3, 1) === patient);
    const signedA08 = () =>
      ofPatient('ADT^A08').filter((r) => r.message.getAllSegments('DG1').some((d) => d.getField(6).toString() === 'F'));
    await expect.poll(() => ofPatient('MDM^T04').length + signedA08().length, poll).toBe(2);
    for (const r of [...ofPatient('MDM^T04'), ...signedA08()]) {
      expect(r.message.getSegment('PID')!.getField(3).toString()).toBe(`${patient}^^^GENHOSP^MR`);
    }
    const docOf = () => fhir.ofType<DocumentReference>('DocumentReference').find((d) => d.subject?.identifier?.value === patient);
    await expect.poll(() => docOf()?.docStatus, poll).toBe('final');
    expect(docOf()!.subject!.identifier).toEqual({ system, value: patient });
    const conditions = () => fhir.ofType<Condition>('Condition').filter((c) => c.subject?.identifier?.value === patient);
    const confirmed = conditions().find((c) => c.code?.coding?.[0].code === 'E11.9');
    expect(confirmed?.verificationStatus?.coding?.[0].code).toBe('confirmed');
    for (const c of conditions()) expect(c.subject!.identifier).toEqual({ system, value: patient });

    const amended = await patchNote(t, caller, noteId, {
      ai_generated_content: { plan: 'Metformin 500 mg; review in 2 weeks.' },
      amendment_reason: 'Plan corrected',
    });
    expect(amended.status, JSON.stringify(amended.body)).toBe(200);
    await expect.poll(() => ofPatient('MDM^T08').length, poll).toBe(1);
    expect(ofPatient('MDM^T08')[0].message.getSegment('PID')!.getField(3).toString()).toBe(`${patient}^^^GENHOSP^MR`);
    await expect.poll(() => docOf()?.docStatus, poll).toBe('amended');
    expect(docOf()!.subject!.identifier).toEqual({ system, value: patient });
  }, 120_000);

  it('keeps the authority on sign-off after retention redacted the inbound message: MDM^T04 PID-3 and the FHIR identifier system', async () => {
    const system = 'urn:oid:2.16.840.1.113883.3.999.1';
    const poll = { timeout: 45_000, interval: 100 };
    const receive = async () => {
      const patient = `MRN-${tag()}`;
      return { patient, ...(await receiveWithAuthority(patient)) };
    };

    // One pipeline of the release before migration 033, which kept the authority only in the
    // message: 033 takes it from there. One of this release, which keeps it from the start.
    const before033 = await receive();
    await t.deps.pool.query(`
      ALTER TABLE documentation_pipelines DROP COLUMN patient_authority, DROP COLUMN patient_system;
      DELETE FROM schema_migrations WHERE name = '033_pipeline_patient_authority.sql';`);
    expect(await migrate(t.deps.pool)).toEqual(['033_pipeline_patient_authority.sql']);
    const after033 = await receive();

    // RETENTION_DAYS pass for both messages, and the hourly housekeeping job redacts their bodies.
    for (const { controlId } of [before033, after033]) {
      await t.deps.pool.query(
        `UPDATE inbound_events SET received_at = received_at - make_interval(days => $2) WHERE source = 'hl7' AND event_id = $1`,
        [controlId, t.deps.config.RETENTION_DAYS + 1],
      );
    }
    await t.deps.boss.send(HOUSEKEEPING_QUEUE, {});
    for (const { controlId } of [before033, after033]) await expect.poll(() => dataOf(controlId), poll).toEqual({});

    const caller = await newCaller(group);
    for (const { patient, noteId } of [before033, after033]) {
      const current = await request(t.app).get(`/v1/clinical-notes/${noteId}`).set(caller.headers);
      expect(current.status).toBe(200);
      const signed = await signNote(t, caller, noteId, { codes: ['E11.9'] }, { 'if-match': current.headers.etag });
      expect(signed.status, JSON.stringify(signed.body)).toBe(200);
      const t04 = () => dest.of('MDM^T04').filter((r) => r.message.getSegment('PID')!.getComponent(3, 1) === patient);
      await expect.poll(() => t04().length, poll).toBe(1);
      expect(t04()[0].message.getSegment('PID')!.getField(3).toString()).toBe(`${patient}^^^GENHOSP^MR`);
      const docOf = () => fhir.ofType<DocumentReference>('DocumentReference').find((d) => d.subject?.identifier?.value === patient);
      await expect.poll(() => docOf()?.docStatus, poll).toBe('final');
      expect(docOf()!.subject!.identifier).toEqual({ system, value: patient });
    }
  }, 180_000);
});
