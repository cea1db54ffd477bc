import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mllpFrame } from '../../src/modules/hl7/mllp-frames.js';
import { startMllpListener, type MllpListener } from '../../src/modules/hl7/mllp-listener.js';
import { noteMdmT02 } from '../../src/modules/hl7/note-messages.js';
import { findInboundEvent } from '../helpers/api-reads.js';
import { encounterData, envelope, postSigned } from '../helpers/inbound.js';
import { isolatedDatabase } from '../helpers/receiver.js';
import { startTestApp, TEST_OPERATOR_KEY, type TestApp } from '../helpers/test-app.js';
import { adtA04, mdmT02, type Hl7Sender } from './hl7.builders.js';
import { ackCode, MllpPeer } from './mllp-peer.js';

const OPERATOR = { 'x-api-key': TEST_OPERATOR_KEY };
const VT = 0x0b;
const FS = 0x1c;

/** DESIGN 2026-11-26 bounds: frame size and time, connections, loop time per message, clean fields. */
describe('HL7 bounds: frames, connections, loop time, control characters', () => {
  let db: Awaited<ReturnType<typeof isolatedDatabase>>;
  let t: TestApp;
  let mllp: MllpListener;
  let slow: MllpListener;
  let http: Server;
  let healthUrl = '';
  const sender: Hl7Sender = { app: 'BOUNDS', facility: `BOUNDSHOSP-${randomUUID().slice(0, 6)}` };
  const group = `group-${randomUUID()}`;

  beforeAll(async () => {
    db = await isolatedDatabase();
    t = await startTestApp({ env: { DATABASE_URL: db.url } });
    const res = await request(t.app)
      .post('/api/v1/integrations')
      .set(OPERATOR)
      .send({
        name: 'bounds',
        source: 'hl7',
        group_ids: [group],
        sending_application: sender.app,
        sending_facility: sender.facility,
        allowed_ips: ['127.0.0.0/24'],
      });
    expect(res.status).toBe(201);
    mllp = await startMllpListener(t.deps, { host: '127.0.0.1', port: 0 });
    // A listening service (one keep-alive connection), as a monitor asks it.
    http = createServer(t.app).listen(0, '127.0.0.1');
    await new Promise((r) => http.once('listening', r));
    healthUrl = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;
    // The same listener with the frame deadline shortened from 30 s, so the test need not wait it out.
    slow = await startMllpListener(t.deps, { host: '127.0.0.1', port: 0, limits: { frameTimeoutMs: 1_000 } });
  });
  afterAll(async () => {
    await mllp?.stop(1_000);
    await slow?.stop(1_000);
    http?.closeAllConnections();
    await new Promise((r) => http?.close(r));
    await t?.close();
    await db?.drop();
  });

  /** Runs `work` while asking /api/v1/health every 20 ms; the slowest answer and the event loop's longest stall. */
  async function healthDuring(work: () => Promise<void>): Promise<{ slowestMs: number; loopMaxMs: number; asked: number }> {
    const loop = monitorEventLoopDelay({ resolution: 5 });
    loop.enable();
    let done = false;
    const times: number[] = [];
    const ask = (async () => {
      while (!done) {
        const started = performance.now();
        const res = await fetch(`${healthUrl}/api/v1/health`);
        await res.arrayBuffer();
        expect(res.status).toBe(200);
        times.push(performance.now() - started);
        await new Promise((r) => setTimeout(r, 20));
      }
    })();
    await work();
    done = true;
    await ask;
    loop.disable();
    return { slowestMs: Math.max(...times), loopMaxMs: loop.max / 1e6, asked: times.length };
  }

  it('answers a CR flood frame (1 MB in the worker, 60 KB on the loop) without stalling the event loop; /api/v1/health answers meanwhile', async () => {
    const header = `MSH|^~\\&|${sender.app}|${sender.facility}|CG|CG|20261124093000||ADT^A04^ADT_A01|FLOOD-${randomUUID().slice(0, 8)}|P|2.5`;
    const peer = await MllpPeer.connect(mllp.port);
    await (await fetch(`${healthUrl}/api/v1/health`)).arrayBuffer(); // warm
    for (const size of [1024 * 1024 - header.length - 16, 200 * 1024, 60 * 1024]) {
      const frame = mllpFrame(Buffer.concat([Buffer.from(header), Buffer.alloc(size, 0x0d)]));
      const seen = await healthDuring(async () => {
        const before = (await peer.acks(0)).length;
        peer.write(frame);
        const acks = await peer.acks(before + 1, 30_000);
        expect(acks).toHaveLength(before + 1);
        // A header and nothing else: no patient (AE), never a stall.
        expect(acks[before].toString()).toMatch(/MSA\|AE\|/);
      });
      console.log(
        `[figure] CR flood ${Math.round(size / 1024)} KB: slowest health ${seen.slowestMs.toFixed(1)} ms of ${seen.asked}, loop stall max ${seen.loopMaxMs.toFixed(1)} ms`,
      );
      // Before: the quadratic trim froze the loop (and health) 2.3 s on 80 KB, so about 1.3 s on 60 KB,
      // 14 s on 200 KB, minutes on 1 MB. The goal, 100 ms, is measured by `npm run bench`
      // (hl7-ack-latency.ts: 'hl7 CR flood'); here, where other test files share the two cores and
      // the database, the bound separates such a stall from scheduling noise (seen up to ~600 ms).
      expect(seen.loopMaxMs).toBeLessThan(1_000);
      expect(seen.slowestMs).toBeLessThan(1_000);
    }
    peer.close();
  }, 60_000);

  it('refuses a frame over 1 MB with AR and closes the connection', async () => {
    const peer = await MllpPeer.connect(mllp.port);
    const big = mdmT02(sender, { lines: Array.from({ length: 12_000 }, (_, i) => `[doctor] line ${i} of a transcript that never ends`) });
    expect(big.text.length).toBeGreaterThan(1024 * 1024);
    peer.write(mllpFrame(Buffer.from(big.text)));
    const [ack] = await peer.acks(1, 10_000);
    expect(ack.toString()).toMatch(/MSA\|AR\|/);
    expect(ack.toString()).toMatch(/larger than 1048576 bytes/);
    await expect.poll(() => peer.closed).toBe(true);
  });

  it('holds at most 10 connections per address and 100 in all; the rest are closed at once', async () => {
    const own = await startMllpListener(t.deps, { host: '127.0.0.1', port: 0 });
    const open = async (localAddress: string) => MllpPeer.connect(own.port, { localAddress });
    // 200 connections from 20 addresses, 10 each: 100 kept, 100 closed.
    const peers = await Promise.all(Array.from({ length: 200 }, (_, i) => open(`127.0.0.${10 + (i % 20)}`)));
    await new Promise((r) => setTimeout(r, 1_500));
    const kept = peers.filter((p) => !p.closed);
    expect(kept).toHaveLength(100);
    // Every kept connection is served.
    const acks = await Promise.all(kept.slice(0, 20).map((p) => p.send(adtA04(sender).text)));
    expect(acks.map(ackCode)).toEqual(Array(20).fill('AA'));
    for (const p of peers) p.close();
    await new Promise((r) => setTimeout(r, 300));
    // Per address: the eleventh from one address is closed, another address still gets in.
    const ten = await Promise.all(Array.from({ length: 10 }, () => open('127.0.0.50')));
    const eleventh = await open('127.0.0.50');
    const elsewhere = await open('127.0.0.51');
    await new Promise((r) => setTimeout(r, 1_000));
    expect(ten.filter((p) => p.closed)).toHaveLength(0);
    expect(eleventh.closed).toBe(true);
    expect(ackCode(await elsewhere.send(adtA04(sender).text))).toBe('AA');
    for (const p of [...ten, eleventh, elsewhere]) p.close();
    await own.stop(1_000);
  }, 30_000);

  it('closes a frame not completed in time (slow bytes do not keep it open); a prompt frame is served', async () => {
    const peer = await MllpPeer.connect(slow.port);
    const msg = Buffer.from(adtA04(sender).text);
    peer.write(Buffer.from([VT]));
    const started = Date.now();
    // One byte every 100 ms: the deadline counts from the frame's first byte, not the last.
    const drip = setInterval(() => !peer.closed && peer.write(msg.subarray(0, 1)), 100);
    const [ack] = await peer.acks(1, 5_000);
    clearInterval(drip);
    expect(ack.toString()).toMatch(/MSA\|AR\|/);
    expect(ack.toString()).toMatch(/not completed within 1 s/);
    await expect.poll(() => peer.closed).toBe(true);
    expect(Date.now() - started).toBeLessThan(4_000);
    const prompt = await MllpPeer.connect(slow.port);
    expect(ackCode(await prompt.send(adtA04(sender).text))).toBe('AA');
    prompt.close();
  });

  it('refuses control characters in a field, raw or as \\X1C0B\\ in PV1-19, with AE; nothing stored', async () => {
    const peer = await MllpPeer.connect(mllp.port);
    for (const visit of ['V-1\\X1C0B\\MSH|^~\\&|EVIL', 'V-2\\X00\\', 'V-3\x01']) {
      const msg = mdmT02(sender, { visit });
      const ack = await peer.send(msg.text);
      expect(ackCode(ack), visit).toBe('AE');
      expect(ack.getSegment('MSA')!.getField(3).toString()).toMatch(/control character/);
      expect(await findInboundEvent(t.app, msg.controlId)).toBeUndefined();
    }
    // Escaped separators and line breaks stay allowed.
    expect(ackCode(await peer.send(mdmT02(sender, { visit: 'V-4\\F\\5\\X41\\' }).text))).toBe('AA');
    peer.close();
  });

  it('refuses a JSON visit_id (and patient, doctor, group ids) with control characters: 422, nothing stored', async () => {
    for (const field of ['visit_id', 'patient_id', 'doctor_id', 'group_id']) {
      const body = envelope('encounter.transcript', encounterData({ [field]: 'V-1\u001c\u000bMSH|^~\\&|EVIL' }));
      const res = await postSigned(t.app, 'ehr', body);
      expect(res.status, field).toBe(422);
      expect(res.body).toMatchObject({ success: false });
      expect(JSON.stringify(res.body.details)).toContain(field);
      expect(await findInboundEvent(t.app, body.id)).toBeUndefined();
    }
  });

  it('never writes a control character out: a note whose text carries MLLP framing bytes is one frame', () => {
    const note = {
      note_id: randomUUID(),
      group_id: group,
      template: 'SOAP',
      ai_generated_content: {
        subjective: 'cough\u000b\u001c\rMSH|^~\\&|EVIL|\u0000tab\there',
        objective: 'ok',
        assessment: 'a',
        plan: 'p',
      },
      final_code_assessments: [],
      patient_id: 'MRN-1',
      doctor_id: 'DR-1',
      visit_id: 'V-1',
    };
    const framed = mllpFrame(Buffer.from(noteMdmT02(note as never, 'M1', new Date()).toString()));
    expect(framed.filter((b) => b === VT)).toHaveLength(1);
    expect(framed.filter((b) => b === FS)).toHaveLength(1);
    const text = framed.subarray(1, -2).toString();
    // eslint-disable-next-line no-control-regex
    expect(text).not.toMatch(/[\x00-\x0c\x0e-\x1f]/);
    expect(text.split('\r').filter((s) => s.startsWith('MSH'))).toHaveLength(1);
  });
});
