import { randomUUID } from 'node:crypto';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mllpFrame } from '../../src/modules/hl7/mllp-frames.js';
import { startMllpListener, type MllpListener } from '../../src/modules/hl7/mllp-listener.js';
import { findInboundEvent } from '../helpers/api-reads.js';
import { isolatedDatabase } from '../helpers/receiver.js';
import { startTestApp, TEST_OPERATOR_KEY, type TestApp } from '../helpers/test-app.js';
import { adtA04, mdmT02, newControlId, type Hl7Sender } from './hl7.builders.js';
import { ackCode, ackControlId, ackError, MllpPeer } from './mllp-peer.js';
import { selfSignedCertificate, type TestCertificate } from './test-certificates.js';

const OPERATOR = { 'x-api-key': TEST_OPERATOR_KEY };
const tag = () => randomUUID().slice(0, 6);

/**
 * DESIGN "Hospital protocols: senders, routing, identifiers, bounds" (2026-11-26): the peer is the
 * credential. Real MLLP peers on 127.0.0.1 (any 127.x address is this machine, so a peer of
 * another address is a socket bound to it), over plain TCP and over TLS with client certificates.
 */
describe('HL7 senders: allowed addresses, client certificates, one refusal, control ids, audit', () => {
  let db: Awaited<ReturnType<typeof isolatedDatabase>>;
  let t: TestApp;
  let mllp: MllpListener;
  const a: Hl7Sender = { app: 'EPIC', facility: `GENHOSP-${tag()}` };
  const b: Hl7Sender = { app: 'CERNER', facility: `OTHERHOSP-${tag()}` };
  const c: Hl7Sender = { app: 'TLSFEED', facility: `TLSHOSP-${tag()}` };
  const groupA = `group-${randomUUID()}`;
  const groupB = `group-${randomUUID()}`;
  const groupC = `group-${randomUUID()}`;
  let idA = '';
  let server: TestCertificate;
  let client: TestCertificate;
  let stranger: TestCertificate;

  const integration = async (body: Record<string, unknown>) => {
    const res = await request(t.app).post('/api/v1/integrations').set(OPERATOR).send(body);
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return res.body as { id: string };
  };
  const storedEvent = (controlId: string) => findInboundEvent(t.app, controlId, 'hl7');

  beforeAll(async () => {
    db = await isolatedDatabase();
    t = await startTestApp({ env: { DATABASE_URL: db.url } });
    [server, client, stranger] = [selfSignedCertificate('clinigate'), selfSignedCertificate('tls-feed'), selfSignedCertificate('someone')];
    idA = (
      await integration({
        name: 'A',
        source: 'hl7',
        group_ids: [groupA],
        sending_application: a.app,
        sending_facility: a.facility,
        allowed_ips: ['127.0.0.1'],
      })
    ).id;
    await integration({
      name: 'B',
      source: 'hl7',
      group_ids: [groupB],
      sending_application: b.app,
      sending_facility: b.facility,
      allowed_ips: ['127.0.0.2/32'],
    });
    await integration({
      name: 'C',
      source: 'hl7',
      group_ids: [groupC],
      sending_application: c.app,
      sending_facility: c.facility,
      allowed_ips: ['127.0.0.1'],
      tls_client_fingerprint: client.fingerprint.replace(/:/g, '').toLowerCase(),
    });
    mllp = await startMllpListener(t.deps, { host: '127.0.0.1', port: 0, tlsPort: 0, tls: { cert: server.cert, key: server.key } });
  });
  afterAll(async () => {
    await mllp?.stop(1_000);
    await t?.close();
    await db?.drop();
  });

  it('needs allowed_ips (IPs or CIDRs) for an hl7 integration; shows them, and the fingerprint as Node writes it', async () => {
    const base = { name: 'x', source: 'hl7', group_ids: ['g'], sending_application: 'X', sending_facility: 'Y' };
    for (const body of [
      base,
      { ...base, allowed_ips: [] },
      { ...base, allowed_ips: ['10.0.0.0/33'] },
      { ...base, allowed_ips: ['host.example'] },
    ]) {
      const res = await request(t.app).post('/api/v1/integrations').set(OPERATOR).send(body);
      expect(res.status, JSON.stringify(body)).toBe(400);
    }
    const list = await request(t.app).get('/api/v1/integrations').set(OPERATOR);
    expect(list.body.find((i: { name: string }) => i.name === 'B')).toMatchObject({ allowed_ips: ['127.0.0.2/32'] });
    expect(list.body.find((i: { name: string }) => i.name === 'C')).toMatchObject({ tls_client_fingerprint: client.fingerprint });
  });

  it('closes a connection from an address no sender allows before reading a byte: no ACK, nothing stored', async () => {
    const outsider = await MllpPeer.connect(mllp.port, { localAddress: '127.0.0.9' });
    const msg = adtA04(a);
    outsider.write(mllpFrame(Buffer.from(msg.text)));
    const acks = await outsider.acks(1, 3_000);
    expect(outsider.closed).toBe(true);
    expect(acks).toHaveLength(0);
    expect(await storedEvent(msg.controlId)).toBeUndefined();
    // An allowed address on the same listener is served.
    const insider = await MllpPeer.connect(mllp.port);
    expect(ackCode(await insider.send(adtA04(a).text))).toBe('AA');
    insider.close();
  });

  it("answers one fixed AR whatever the reason: unknown pair, spoofed MSH-3/MSH-4 from another sender's address, missing client certificate", async () => {
    const fromB = await MllpPeer.connect(mllp.port, { localAddress: '127.0.0.2' });
    // B's own message from B's address is B's.
    const own = adtA04(b);
    expect(ackCode(await fromB.send(own.text))).toBe('AA');
    expect((await storedEvent(own.controlId)).group_id).toBe(groupB);
    // A's MSH-3/MSH-4 from B's (allowed) address: refused, nothing stored, so nothing flows to A's group.
    const spoofed = mdmT02(a, { patient: 'MRN-SPOOF' });
    const spoofAck = await fromB.send(spoofed.text);
    fromB.close();
    const fromA = await MllpPeer.connect(mllp.port);
    const unknownAck = await fromA.send(adtA04({ app: 'NOBODY', facility: `NOWHERE-${tag()}` }).text);
    // C's pair without C's client certificate (plain TCP).
    const noCertAck = await fromA.send(adtA04(c).text);
    fromA.close();
    const refusal = (ack: typeof spoofAck) => [ackCode(ack), ack.getSegment('MSA')!.getField(3).toString(), ackError(ack)];
    expect(refusal(spoofAck)[0]).toBe('AR');
    expect(ackControlId(spoofAck)).toBe(spoofed.controlId);
    expect(refusal(unknownAck)).toEqual(refusal(spoofAck));
    expect(refusal(noCertAck)).toEqual(refusal(spoofAck));
    expect(await storedEvent(spoofed.controlId)).toBeUndefined();
  });

  it('takes MLLP over TLS from the sender with its pinned client certificate, and refuses others', async () => {
    const ca = server.cert;
    const withCert = await MllpPeer.connect(mllp.tlsPort!, { tls: { ca, cert: client.cert, key: client.key, servername: 'localhost' } });
    const msg = adtA04(c);
    expect(ackCode(await withCert.send(msg.text))).toBe('AA');
    expect((await storedEvent(msg.controlId)).group_id).toBe(groupC);
    withCert.close();
    const wrongCert = await MllpPeer.connect(mllp.tlsPort!, {
      tls: { ca, cert: stranger.cert, key: stranger.key, servername: 'localhost' },
    });
    const noCert = await MllpPeer.connect(mllp.tlsPort!, { tls: { ca, servername: 'localhost' } });
    const refused = [await wrongCert.send(adtA04(c).text), await noCert.send(adtA04(c).text)];
    expect(refused.map(ackCode)).toEqual(['AR', 'AR']);
    // A sender without a pinned certificate may use TLS too.
    expect(ackCode(await noCert.send(adtA04(a).text))).toBe('AA');
    wrongCert.close();
    noCert.close();
  });

  it('answers a reused MSH-10 with another message AE and stores nothing; the same message again is AA once', async () => {
    const peer = await MllpPeer.connect(mllp.port);
    const controlId = newControlId();
    const first = mdmT02(a, { controlId, patient: 'MRN-FIRST', lines: ['[doctor] the first message'] });
    expect(ackCode(await peer.send(first.text))).toBe('AA');
    // A resend, even with a new MSH-7 (send time), is the same message.
    expect(ackCode(await peer.send(first.text.replace('|20261124093000||MDM', '|20261124093500||MDM')))).toBe('AA');
    const other = mdmT02(a, { controlId, patient: 'MRN-OTHER', lines: ['[doctor] another message under a used id'] });
    const ack = await peer.send(other.text);
    peer.close();
    expect(ackCode(ack)).toBe('AE');
    expect(ack.getSegment('MSA')!.getField(3).toString()).toMatch(/control id reused/i);
    // SQL: one stored row, with the first message's data: the API never shows an event's data.
    const { rows } = await t.deps.pool.query(`SELECT group_id, data FROM inbound_events WHERE source = 'hl7' AND event_id = $1`, [
      controlId,
    ]);
    expect(rows).toHaveLength(1);
    expect(rows[0].data).toMatchObject({ patient_id: 'MRN-FIRST', transcript: '[doctor] the first message' });
  });

  it('leaves one audit row per stored message: user integration:<id>, operation HL7 <type>, the event id, the patient', async () => {
    const peer = await MllpPeer.connect(mllp.port);
    const msg = mdmT02(a, { patient: `MRN-${tag()}` });
    expect(ackCode(await peer.send(msg.text))).toBe('AA');
    expect(ackCode(await peer.send(msg.text))).toBe('AA'); // a resend stores nothing, so no second row
    peer.close();
    const rows = async () =>
      (await request(t.app).get(`/api/v1/audit-events?resource_id=${msg.controlId}`).set(OPERATOR)).body.items as Array<
        Record<string, unknown>
      >;
    await expect.poll(async () => (await rows()).length, { timeout: 5_000 }).toBe(1);
    await new Promise((r) => setTimeout(r, 200));
    const items = await rows();
    expect(items).toHaveLength(1);
    expect(items[0]).toMatchObject({
      user: `integration:${idA}`,
      operation: 'HL7 MDM^T02',
      resource_id: msg.controlId,
      group_id: groupA,
      patient: msg.text.match(/PID\|1\|\|([^^]+)/)![1],
    });
  });
});
