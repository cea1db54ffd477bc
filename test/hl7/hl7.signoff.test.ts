import { generateKeyPairSync } from 'node:crypto';
import type { Condition, DocumentReference } from '@medplum/fhirtypes';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isolatedDatabase } from '../helpers/receiver.js';
import { startTestApp, TEST_OPERATOR_KEY, type TestApp } from '../helpers/test-app.js';
import { patchNote } from '../notes/notes.builders.js';
import { pipelineNote, signNote } from '../notes/signoff.builders.js';
import { FhirStandIn } from './fhir-stand-in.js';
import { MllpDestination } from './mllp-destination.js';

const OPERATOR = { 'x-api-key': TEST_OPERATOR_KEY };
const POLL = { timeout: 30_000, interval: 100 };
const VER_STATUS = (c: Condition) => c.verificationStatus?.coding?.[0].code;

describe('sign-off and amendment to HL7 (MDM^T04/T08, ADT^A08 DG1-6 F) and FHIR (conditional update) destinations', () => {
  let db: Awaited<ReturnType<typeof isolatedDatabase>>;
  let t: TestApp;
  let mllp: MllpDestination;
  let fhir: FhirStandIn;
  const group = `group-signoff-${Date.now()}`;
  let hl7: request.Response;
  let fhirEndpoint: request.Response;

  beforeAll(async () => {
    db = await isolatedDatabase();
    t = await startTestApp({ workers: true, env: { DATABASE_URL: db.url } });
    mllp = await MllpDestination.start();
    const pair = generateKeyPairSync('ec', { namedCurve: 'secp384r1' });
    fhir = await new FhirStandIn('clinigate-signoff', pair.publicKey).start();
    hl7 = await request(t.app).post('/api/v1/webhook-endpoints').set(OPERATOR).send({ kind: 'hl7-mllp', url: mllp.url, group_id: group });
    fhirEndpoint = await request(t.app)
      .post('/api/v1/webhook-endpoints')
      .set(OPERATOR)
      .send({
        kind: 'fhir',
        url: fhir.base,
        group_id: group,
        events: ['note.ready', 'note.signed', 'note.amended'],
        auth: {
          token_url: fhir.tokenUrl,
          client_id: 'clinigate-signoff',
          private_key: pair.privateKey.export({ format: 'pem', type: 'pkcs8' }),
        },
      });
    expect([hl7.status, fhirEndpoint.status]).toEqual([201, 201]);
    expect(hl7.body.events).toEqual(['note.ready', 'note.signed', 'note.amended']);
  });
  afterAll(async () => {
    await t?.close();
    await mllp?.stop();
    await fhir?.stop();
    await db?.drop();
  });

  /** The statuses of the deliveries of the event type, one per destination, as each endpoint's delivery log lists them. */
  const deliveredOf = async (type: string) => {
    const statuses: string[] = [];
    for (const endpoint of [hl7.body.id, fhirEndpoint.body.id]) {
      const log = await request(t.app).get(`/api/v1/webhook-endpoints/${endpoint}/deliveries?limit=100`).set(OPERATOR);
      expect(log.status).toBe(200);
      for (const d of log.body as { event_type: string; status: string }[]) if (d.event_type === type) statuses.push(d.status);
    }
    return statuses.join();
  };

  it('sign: T04 then A08 with the signed codes F, the document final and Conditions confirmed or refuted; amend: T08 and docStatus amended; one DocumentReference; a replay creates nothing', async () => {
    const { noteId, caller, codes, data } = await pipelineNote(t, { group_id: group });
    await expect.poll(() => deliveredOf('note.ready'), POLL).toBe('delivered,delivered');
    expect(mllp.of('MDM^T02')).toHaveLength(1);
    expect(fhir.ofType<Condition>('Condition').map(VER_STATUS)).toEqual(codes.map(() => 'provisional'));

    // The clinician keeps none of the suggested codes and signs another one.
    const signed = await signNote(t, caller, noteId, { codes: ['E11.9'] }, { 'if-match': '"1"' });
    expect(signed.status).toBe(200);
    await expect.poll(() => deliveredOf('note.signed'), POLL).toBe('delivered,delivered');

    const [t04] = mllp.of('MDM^T04');
    expect(t04).toBeDefined();
    const txa = t04.message.getSegment('TXA')!;
    expect(txa.getField(12).toString()).toBe(noteId);
    expect(txa.getField(17).toString()).toBe('AU');
    expect(txa.getComponent(22, 1)).toBe(caller.userId);
    expect(txa.getComponent(22, 15)).toMatch(/^\d{14}\+0000$/);
    expect(t04.message.header.getComponent(9, 3)).toBe('MDM_T02');
    expect(t04.message.getAllSegments('OBX').map((o) => o.getField(11).toString())).not.toContain('P');
    expect(t04.message.getSegment('PID')!.getComponent(3, 1)).toBe(data.patient_id);
    const a08s = mllp.of('ADT^A08');
    expect(a08s).toHaveLength(2); // note.ready's (working codes), then the signature's (final codes)
    expect(a08s[0].message.getAllSegments('DG1').map((d) => d.getField(6).toString())).toEqual(codes.map(() => 'W'));
    const dg1 = a08s[1].message.getAllSegments('DG1');
    expect(dg1.map((d) => [d.getComponent(3, 1), d.getField(6).toString()])).toEqual([['E11.9', 'F']]);
    expect(a08s[1].at).toBeGreaterThanOrEqual(t04.at);

    const docs = () => fhir.ofType<DocumentReference>('DocumentReference');
    expect(docs()).toHaveLength(1);
    expect(docs()[0]).toMatchObject({ docStatus: 'final', authenticator: { identifier: { value: caller.userId } } });
    const conditions = fhir.ofType<Condition>('Condition');
    expect(conditions).toHaveLength(codes.length + 1);
    const byCode = new Map(conditions.map((c) => [c.code!.coding![0].code, VER_STATUS(c)]));
    expect(byCode.get('E11.9')).toBe('confirmed');
    for (const c of codes) expect(byCode.get(c.code)).toBe('refuted');

    const amended = await patchNote(t, caller, noteId, {
      ai_generated_content: { plan: 'Metformin 500 mg; review in 2 weeks.' },
      amendment_reason: 'Plan corrected',
    });
    expect(amended.status).toBe(200);
    await expect.poll(() => deliveredOf('note.amended'), POLL).toBe('delivered,delivered');
    const [t08] = mllp.of('MDM^T08');
    expect(t08.message.getSegment('TXA')!.getField(12).toString()).toBe(noteId);
    expect(t08.message.getSegment('TXA')!.getField(17).toString()).toBe('AU');
    expect(t08.message.getAllSegments('OBX').some((o) => o.getField(5).toString().includes('Metformin 500 mg'))).toBe(true);
    expect(mllp.of('ADT^A08')).toHaveLength(2); // an amendment changes no code
    expect(docs()).toHaveLength(1);
    expect(docs()[0]).toMatchObject({ docStatus: 'amended', authenticator: { identifier: { value: caller.userId } } });
    expect(Buffer.from(docs()[0].content[0].attachment.data!, 'base64').toString()).toContain('Metformin 500 mg');

    // A replay of the signature: the server applies it again and creates nothing.
    const endpoints = (await request(t.app).get('/api/v1/webhook-endpoints').set(OPERATOR)).body as Array<{ id: string; kind: string }>;
    const fhirId = endpoints.find((e) => e.kind === 'fhir' && (e as unknown as { group_id: string }).group_id === group)!.id;
    const list = (await request(t.app).get(`/api/v1/webhook-endpoints/${fhirId}/deliveries`).set(OPERATOR)).body as Array<{
      id: string;
      event_type?: string;
      type?: string;
    }>;
    const before = { transactions: fhir.transactions.length, stored: fhir.stored.size };
    for (const d of list) expect((await request(t.app).post(`/api/v1/webhook-deliveries/${d.id}/replay`).set(OPERATOR)).status).toBe(202);
    await expect.poll(() => fhir.transactions.length, POLL).toBe(before.transactions + list.length);
    expect(fhir.stored.size).toBe(before.stored);
    expect(docs()).toHaveLength(1);
  }, 120_000);
});
