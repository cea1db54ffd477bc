import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mllpFrame } from '../../src/modules/hl7/mllp-frames.js';
import { startMllpListener, type MllpListener } from '../../src/modules/hl7/mllp-listener.js';
import { readInboundEvent, readNote } from '../helpers/api-reads.js';
import { capturingLogger } from '../helpers/chaos-logs.js';
import { isolatedDatabase } from '../helpers/receiver.js';
import { startTestApp, TEST_OPERATOR_KEY, type TestApp } from '../helpers/test-app.js';
import { newCaller } from '../helpers/tokens.js';
import { adtA04, mdmT02, newControlId, oruR01, transcriptLines, type Hl7Sender } from './hl7.builders.js';
import { MllpDestination } from './mllp-destination.js';
import { ackCode, ackControlId, ackError, MllpPeer } from './mllp-peer.js';

const OPERATOR = { 'x-api-key': TEST_OPERATOR_KEY };
const MARK = `PHIMARK${randomUUID().slice(0, 8)}`;

describe('HL7 v2 over MLLP, inbound', () => {
  let db: Awaited<ReturnType<typeof isolatedDatabase>>;
  let t: TestApp;
  let mllp: MllpListener;
  let peer: MllpPeer;
  const groups = [`group-${randomUUID()}`, `group-${randomUUID()}`];
  const sender: Hl7Sender = { app: 'EPIC', facility: `STMARY-${randomUUID().slice(0, 6)}` };
  const { logger, lines: logLines } = capturingLogger();

  beforeAll(async () => {
    db = await isolatedDatabase();
    t = await startTestApp({ env: { DATABASE_URL: db.url, LOG_LEVEL: 'debug' }, logger, workers: true });
    const created = await request(t.app)
      .post('/api/v1/integrations')
      .set(OPERATOR)
      .send({
        name: 'St. Mary interface engine',
        source: 'hl7',
        group_ids: groups,
        sending_application: sender.app,
        sending_facility: sender.facility,
        allowed_ips: ['127.0.0.1'],
      });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    mllp = await startMllpListener(t.deps, { port: 0, host: '127.0.0.1' });
    peer = await MllpPeer.connect(mllp.port);
  });
  afterAll(async () => {
    peer?.close();
    await mllp?.stop(1_000);
    await t?.close();
    await db?.drop();
  });

  // SQL: what is stored of a message (its parsed data) is the point here, and the API never shows an event's data.
  const eventRow = async (controlId: string) =>
    (await t.deps.pool.query(`SELECT source, type, group_id, data, status FROM inbound_events WHERE event_id = $1`, [controlId])).rows;
  /** What the API shows of the event: its status and the pipeline's step ids. */
  const eventState = async (controlId: string) =>
    (await readInboundEvent(t.app, controlId, 'hl7')) as { status: string; occurred_at: string; pipeline: Record<string, string> };

  it('takes an MDM^T02 with a 40-line transcript: AA after commit, MSA-2 = MSH-10, then the documentation pipeline makes the note', async () => {
    const lines = transcriptLines(40);
    lines[3] = `[patient] my neighbour ${MARK} has the same cough.`;
    const msg = mdmT02(sender, { lines, patient: 'MRN-4711', visit: 'V-1234' });
    const ack = await peer.send(msg.text);
    expect(ackCode(ack)).toBe('AA');
    expect(ackControlId(ack)).toBe(msg.controlId);
    expect(ack.header.getComponent(9, 1)).toBe('ACK');

    const [row] = await eventRow(msg.controlId);
    expect(row).toMatchObject({ source: 'hl7', type: 'MDM^T02', group_id: groups[0] });
    expect((await eventState(msg.controlId)).occurred_at).toBe('2026-11-24T09:30:00.000Z'); // MSH-7
    expect(row.data).toMatchObject({
      patient_id: 'MRN-4711',
      visit_id: 'V-1234',
      doctor_id: 'DR42',
      template: 'SOAP',
      duration_seconds: 0,
    });
    expect(row.data.transcript.split('\n')).toEqual(lines);

    await expect.poll(async () => (await eventState(msg.controlId)).status, { timeout: 45_000, interval: 250 }).toBe('completed');
    const done = await eventState(msg.controlId);
    const caller = await newCaller(groups[0]);
    expect(await readNote(t.app, caller, done.pipeline.note_id)).toMatchObject({
      group_id: groups[0],
      patient_id: 'MRN-4711',
      template: 'SOAP',
    });
    // The note's doctor is shown as the FHIR view's author (the note's JSON leaves it out).
    const fhir = await request(t.app).get(`/v1/clinical-notes/${done.pipeline.note_id}/fhir`).set(caller.headers);
    expect(fhir.body.author).toEqual([{ type: 'Practitioner', identifier: { value: 'DR42' } }]);
    // SQL: the outbox has no read API (its events are only seen delivered, by an endpoint's receiver).
    const ready = await t.deps.pool.query(`SELECT data FROM outbox WHERE type = 'note.ready' AND data->>'event_id' = $1`, [msg.controlId]);
    expect(ready.rows[0].data).toMatchObject({
      patient_id: 'MRN-4711',
      visit_id: 'V-1234',
      doctor_id: 'DR42',
      note_id: done.pipeline.note_id,
    });
  }, 60_000);

  it('acknowledges a repeated MSH-10 again (AA) and processes it once', async () => {
    const msg = adtA04(sender);
    expect(ackCode(await peer.send(msg.text))).toBe('AA');
    expect(ackCode(await peer.send(msg.text))).toBe('AA');
    const other = await MllpPeer.connect(mllp.port);
    const acks = await Promise.all([other.send(msg.text), peer.send(msg.text)]);
    other.close();
    expect(acks.map(ackCode)).toEqual(['AA', 'AA']);
    expect(await eventRow(msg.controlId)).toHaveLength(1);
  });

  it('stores an ADT^A04 as an event with the identifiers only, and completes it', async () => {
    const msg = adtA04(sender, { patient: 'MRN-9', visit: 'V-9' });
    expect(ackCode(await peer.send(msg.text))).toBe('AA');
    const [row] = await eventRow(msg.controlId);
    expect(row).toMatchObject({ type: 'ADT^A04', group_id: groups[0] });
    expect(row.data).toMatchObject({ patient_id: 'MRN-9', visit_id: 'V-9', patient_class: 'O' });
    expect(JSON.stringify(row.data)).not.toContain('Brien');
    await expect.poll(async () => (await eventRow(msg.controlId))[0].status, { timeout: 15_000 }).toBe('completed');
    const state = await request(t.app).get(`/api/v1/webhooks/events/${msg.controlId}?source=hl7`).set(OPERATOR);
    expect(state.status).toBe(200);
    expect(state.body).toMatchObject({ id: msg.controlId, source: 'hl7', type: 'ADT^A04', status: 'completed', group_id: groups[0] });
    expect(state.body).not.toHaveProperty('data');
  });

  it('reads an ORU^R01 with FT lines (\\.br\\) and one with a Base64 ED text attachment', async () => {
    const lines = ['[doctor] how is the knee?', '[patient] it hurts | when I climb ^ stairs & more'];
    const ft = oruR01(sender, { lines: lines.map((l) => l.replace(/\|/g, '\\F\\').replace(/\^/g, '\\S\\').replace(/&/g, '\\T\\')) });
    expect(ackCode(await peer.send(ft.text))).toBe('AA');
    expect((await eventRow(ft.controlId))[0].data).toMatchObject({
      transcript: lines.join('\n'),
      doctor_id: 'DR7',
      patient_id: 'MRN-2002',
      visit_id: 'V-88',
    });

    const ed = oruR01(sender, { base64: true, lines: ['[doctor] née Müller, 38.4 °C', '[patient] ok'] });
    expect(ackCode(await peer.send(ed.text))).toBe('AA');
    expect((await eventRow(ed.controlId))[0].data.transcript).toBe('[doctor] née Müller, 38.4 °C\n[patient] ok');
  });

  it('decodes the MSH-18 character set (8859/1) and answers in it', async () => {
    const msg = mdmT02(sender, { charset: '8859/1', lines: ['[patient] me duele la cabeza, señor', '[doctor] ¿desde cuándo?'] });
    const ack = await peer.send(msg.text, 'latin1');
    expect(ackCode(ack)).toBe('AA');
    expect((await eventRow(msg.controlId))[0].data.transcript).toBe('[patient] me duele la cabeza, señor\n[doctor] ¿desde cuándo?');
    const utf16 = mdmT02(sender, { charset: 'UNICODE UTF-16' });
    const unknown = await peer.send(utf16.text);
    expect(ackCode(unknown)).toBe('AR');
    expect(ackControlId(unknown)).toBe(utf16.controlId);
    expect(unknown.getSegment('MSA')!.getField(3).toString()).toMatch(/UNICODE UTF-16 is not supported/);
  });

  it('routes by PV1-3 facility to another bound group, and refuses (AR) a facility it is not bound to', async () => {
    const second = adtA04(sender, { facility: groups[1] });
    expect(ackCode(await peer.send(second.text))).toBe('AA');
    expect((await eventRow(second.controlId))[0].group_id).toBe(groups[1]);

    const wrong = mdmT02(sender, { facility: 'group-of-someone-else' });
    const ack = await peer.send(wrong.text);
    expect(ackCode(ack)).toBe('AR');
    expect(ackControlId(ack)).toBe(wrong.controlId);
    expect(ackError(ack)).toContain('PV1^1^3');
    expect(await eventRow(wrong.controlId)).toHaveLength(0);
  });

  it('refuses (AR) an unknown sender (MSH-4 of no integration) and an unsupported type; stores nothing', async () => {
    const stranger = mdmT02({ app: sender.app, facility: 'OTHER-HOSPITAL' });
    const ack = await peer.send(stranger.text);
    expect(ackCode(ack)).toBe('AR');
    expect(ackError(ack)).toContain('204');
    const unsupported = adtA04(sender).text.replace('ADT^A04^ADT_A01', 'SIU^S12^SIU_S12');
    const ack2 = await peer.send(unsupported);
    expect(ackCode(ack2)).toBe('AR');
    expect(ackError(ack2)).toContain('200');
    expect(await eventRow(stranger.controlId)).toHaveLength(0);
  });

  it('answers AE with an ERR naming the problem when a message cannot be processed', async () => {
    const noPatient = mdmT02(sender).text.replace(/PID\|1\|\|[^|]*/, 'PID|1||');
    const ack = await peer.send(noPatient);
    expect(ackCode(ack)).toBe('AE');
    expect(ackError(ack)).toContain('PID^1^3');
    expect(ackError(ack)).toContain('101');
    const noText = mdmT02(sender, { lines: [] });
    const ack2 = await peer.send(noText.text);
    expect(ackCode(ack2)).toBe('AE');
    expect(ack2.getSegment('MSA')!.getField(3).toString()).toMatch(/transcript/i);
    expect(await eventRow(noText.controlId)).toHaveLength(0);
    const longVisit = mdmT02(sender, { visit: 'V'.repeat(300) });
    const ack3 = await peer.send(longVisit.text);
    expect(ackCode(ack3)).toBe('AE');
    expect(ackError(ack3)).toContain('visit_id');
    expect(await eventRow(longVisit.controlId)).toHaveLength(0);
  });

  it("end to end: an MDM^T02 in comes out as an MDM^T02 (and ADT^A08 with the codes) at the group's HL7 destination", async () => {
    const dest = await MllpDestination.start();
    const endpoint = await request(t.app)
      .post('/api/v1/webhook-endpoints')
      .set(OPERATOR)
      .send({ kind: 'hl7-mllp', url: dest.url, group_id: groups[0] });
    expect(endpoint.status).toBe(201);
    const patient = `MRN-${randomUUID().slice(0, 8)}`;
    const msg = mdmT02(sender, { patient, visit: 'V-E2E' });
    const started = Date.now();
    expect(ackCode(await peer.send(msg.text))).toBe('AA');
    const ackedMs = Date.now() - started;
    const out = () => dest.of('MDM^T02').find((r) => r.message.getSegment('PID')!.getComponent(3, 1) === patient);
    await expect.poll(() => out() !== undefined, { timeout: 45_000, interval: 50 }).toBe(true);
    const endToEndMs = out()!.at - started;
    console.log(`[figure] MDM^T02 in -> AA ${ackedMs} ms; MDM^T02 in -> MDM^T02 out ${endToEndMs} ms`);
    const done = await eventState(msg.controlId);
    expect(out()!.message.getSegment('TXA')!.getComponent(12, 1)).toBe(done.pipeline.note_id);
    expect(out()!.message.getSegment('PV1')!.getComponent(19, 1)).toBe('V-E2E');
    await expect
      .poll(() => dest.of('ADT^A08').some((r) => r.message.getSegment('PID')!.getComponent(3, 1) === patient), { timeout: 10_000 })
      .toBe(true);
    await dest.stop();
  }, 60_000);

  it('survives garbage, partial frames and several messages in one write, answering each in order', async () => {
    const raw = await MllpPeer.connect(mllp.port);
    raw.write(Buffer.from('\x00\xffnot hl7 at all\r\n'));
    raw.write(mllpFrame(Buffer.from('garbage without a header')));
    const [garbageAck] = await raw.acks(1);
    expect(garbageAck.toString()).toContain('MSA|AR|');

    const a = adtA04(sender);
    const b = adtA04(sender);
    const c = oruR01(sender);
    const bytes = Buffer.concat([mllpFrame(Buffer.from(a.text)), mllpFrame(Buffer.from(b.text)), mllpFrame(Buffer.from(c.text))]);
    // One byte at a time for the first frame, the rest in one write.
    const cut = mllpFrame(Buffer.from(a.text)).length;
    for (let i = 0; i < cut; i++) raw.write(bytes.subarray(i, i + 1));
    raw.write(bytes.subarray(cut));
    const acks = (await raw.acks(4)).slice(1).map((f) => f.toString());
    expect(acks.map((s) => /MSA\|(\w+)\|([^|\r]*)/.exec(s)!.slice(1))).toEqual([
      ['AA', a.controlId],
      ['AA', b.controlId],
      ['AA', c.controlId],
    ]);
    raw.close();

    // The listener lives on.
    const after = adtA04(sender, { controlId: newControlId() });
    expect(ackCode(await peer.send(after.text))).toBe('AA');
  });

  it('answers a sender that pipelines 250 messages in one write, in order (reading pauses and resumes)', async () => {
    const burst = await MllpPeer.connect(mllp.port);
    const messages = Array.from({ length: 250 }, () => adtA04(sender));
    burst.write(Buffer.concat(messages.map((m) => mllpFrame(Buffer.from(m.text)))));
    const acks = await burst.acks(250, 30_000);
    expect(acks.map((a) => /MSA\|(\w+)\|([^|\r]*)/.exec(a.toString())!.slice(1).join(' '))).toEqual(
      messages.map((m) => `AA ${m.controlId}`),
    );
    burst.close();
    const long = adtA04(sender, { controlId: 'X'.repeat(200) });
    expect(ackCode(await peer.send(long.text))).toBe('AR');
  }, 60_000);

  it('answers any bytes in a frame with an ACK, or nothing, and never falls over (property)', async () => {
    const fuzz = await MllpPeer.connect(mllp.port);
    const header = `MSH|^~\\&|${sender.app}|${sender.facility}|CG|CG|20261124||`;
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(
          fc.uint8Array({ maxLength: 400 }),
          fc.string({ maxLength: 400 }).map((s) => new TextEncoder().encode(header + s)),
          // Anything as MSH-18 (the character set) and after it.
          fc.string({ maxLength: 60 }).map((s) => new TextEncoder().encode(`${header}ADT^A04|C1|P|2.5||||||${s}\rPID|1||X`)),
        ),
        async (bytes) => {
          // No framing byte inside, so each case is exactly one frame and one answer.
          const body = Buffer.from(bytes.filter((b) => b !== 0x0b && b !== 0x1c));
          const before = (await fuzz.acks(0)).length;
          fuzz.write(mllpFrame(body));
          const acks = await fuzz.acks(before + 1, 5_000);
          expect(acks.length).toBe(before + 1);
          expect(acks[before].toString('latin1')).toMatch(/MSA\|(AA|AE|AR)\|/);
        },
      ),
      { numRuns: 150 },
    );
    fuzz.close();
    expect(ackCode(await peer.send(adtA04(sender).text))).toBe('AA');
    const metrics = await request(t.app).get('/metrics');
    expect(metrics.text).toMatch(/clinigate_hl7_ack_duration_seconds_count\{type="ADT\^A04",ack="AA"\} \d+/);
    expect(metrics.text).toMatch(/clinigate_hl7_ack_duration_seconds_count\{type="other",ack="AR"\} \d+/);
  }, 60_000);

  it('stops gracefully: a message already read is still answered AA after its commit', async () => {
    // A database that takes 300 ms per statement: the message is surely in hand when stop() is called.
    const slowPool = {
      query: async (...args: unknown[]) => {
        await new Promise((r) => setTimeout(r, 300));
        return (t.deps.pool.query as (...a: unknown[]) => Promise<unknown>)(...args);
      },
    } as unknown as typeof t.deps.pool;
    const own = await startMllpListener({ ...t.deps, pool: slowPool }, { port: 0, host: '127.0.0.1' });
    const client = await MllpPeer.connect(own.port);
    // A first message admits the connection (the peer check reads the slow database too).
    expect(ackCode(await client.send(adtA04(sender).text))).toBe('AA');
    const msg = adtA04(sender);
    client.write(mllpFrame(Buffer.from(msg.text)));
    await new Promise((r) => setTimeout(r, 50));
    const stopped = own.stop(5_000);
    await expect(MllpPeer.connect(own.port)).rejects.toThrow(); // no new connections meanwhile
    const [, ack] = await client.acks(2, 5_000);
    await stopped;
    expect(ack.toString()).toContain(`MSA|AA|${msg.controlId}`);
    expect(await eventRow(msg.controlId)).toHaveLength(1);
    client.close();
  });

  it('refuses a taken MLLP port with a one-line start-up reason naming HL7_MLLP_PORT', async () => {
    const taken = mllp.port; // the suite's own listener holds it
    await expect(startMllpListener(t.deps, { port: taken, host: '127.0.0.1' })).rejects.toThrow(
      `MLLP port ${taken} is in use by another process: stop it, or set HL7_MLLP_PORT to a free port`,
    );
  });

  it('wrote no transcript text or patient identifier into any log line (debug level)', () => {
    expect(logLines.length).toBeGreaterThan(10);
    expect(logLines.some((l) => l.includes('hl7 message acknowledged'))).toBe(true);
    for (const line of logLines) {
      expect(line).not.toContain(MARK);
      expect(line).not.toContain('MRN-4711');
      expect(line).not.toContain('cough');
    }
  });
});
