import { generateKeyPairSync, randomUUID } from 'node:crypto';
import http from 'node:http';
import net, { type AddressInfo } from 'node:net';
import tls from 'node:tls';
import { Hl7Message } from '@medplum/core';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { fhirTransport } from '../../src/modules/fhir/fhir.transport.js';
import { noteBundle } from '../../src/modules/fhir/note-bundle.js';
import { SmartTokenCache } from '../../src/modules/fhir/smart-token.js';
import { hl7MessagesOf, hl7MllpTransport } from '../../src/modules/hl7/hl7-mllp.transport.js';
import { MllpClientPool } from '../../src/modules/hl7/mllp-client.js';
import { MllpDeframer, mllpFrame } from '../../src/modules/hl7/mllp-frames.js';
import { resolveMllpUrl } from '../../src/modules/hl7/send-hl7-mllp.js';
import type { Destination } from '../../src/modules/outbound-webhooks/transport/outbound-transport.js';
import { resolveTarget, SsrfError, type OutboundRules } from '../../src/modules/outbound-webhooks/transport/ssrf-guard.js';
import { noteReadySchema } from '../../src/outbound-events/note-ready.js';
import { selfSignedCertificate } from './test-certificates.js';

const PUBLIC = async () => [{ address: '93.184.216.34', family: 4 }];
const VPN = async () => [{ address: '10.20.30.40', family: 4 }];
const LOOPBACK = { allowPrivate: false, allowCidrs: ['127.0.0.0/8'] };

const note = (overrides: Record<string, unknown> = {}) =>
  noteReadySchema.parse({
    event_id: 'E1',
    correlation_id: randomUUID(),
    group_id: 'g',
    patient_id: 'MRN-0099',
    patient_authority: 'GENHOSP',
    doctor_id: 'DR1',
    visit_id: 'V1',
    note_id: randomUUID(),
    transcription_id: randomUUID(),
    thread_id: randomUUID(),
    run_id: randomUUID(),
    codify_run_id: randomUUID(),
    template: 'SOAP',
    ai_generated_content: { subjective: 's', objective: 'o', assessment: 'a', plan: 'p' },
    final_code_assessments: [{ code: 'J18.9', description: 'Pneumonia, unspecified organism' }],
    ...overrides,
  });

/** A raw MLLP destination: counts connections, answers each frame with `answer(message)` (a frame's bytes) or nothing. */
async function rawDestination(answer: (message: Hl7Message) => Buffer | undefined, secure?: tls.TlsOptions) {
  const received: Hl7Message[] = [];
  const sockets = new Set<net.Socket>();
  let connections = 0;
  const onSocket = (socket: net.Socket) => {
    connections++;
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => {});
    const deframer = new MllpDeframer(1 << 24);
    socket.on('data', (d) => {
      for (const frame of deframer.push(d)) {
        const message = Hl7Message.parse(frame.toString('utf8'));
        received.push(message);
        const reply = answer(message);
        if (reply) socket.write(reply);
      }
    });
  };
  const server = secure ? tls.createServer(secure, onSocket) : net.createServer(onSocket);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const port = (server.address() as AddressInfo).port;
  return {
    port,
    received,
    get connections() {
      return connections;
    },
    dropConnections: () => sockets.forEach((s) => s.destroy()),
    stop: () => new Promise<void>((r) => (sockets.forEach((s) => s.destroy()), server.close(() => r()))),
  };
}
const aa = (m: Hl7Message) => mllpFrame(Buffer.from(m.buildAck({ ackCode: 'AA' }).toString()));

/** A note.ready delivery to an HL7 destination, built as the delivery job builds it, sent by the hl7-mllp transport on `connections`. */
function sendHl7(url: string, timeoutMs: number, connections: MllpClientPool, rules: OutboundRules = LOOPBACK) {
  const to: Destination = { deliveryId: randomUUID(), endpointId: randomUUID(), url, rules };
  const built = hl7MessagesOf('note.ready', note(), to.deliveryId, { application: 'EPIC-IB', facility: 'GENHOSP' });
  if (!('send' in built)) throw new Error(JSON.stringify(built));
  return hl7MllpTransport.send(to, built.send, timeoutMs, connections);
}

describe('outbound addresses, read caps and kept MLLP connections (DESIGN 2026-11-26)', () => {
  const states: MllpClientPool[] = [];
  const state = (pool = new MllpClientPool()) => {
    states.push(pool);
    return pool;
  };
  const stops: Array<() => Promise<void>> = [];
  afterEach(async () => {
    for (const stop of stops.splice(0)) await stop();
  });
  afterAll(() => states.forEach((s) => s.close()));

  it('sends only over TLS to public addresses; cleartext only inside OUTBOUND_ALLOW_CIDRS (or under WEBHOOK_ALLOW_PRIVATE)', async () => {
    const none = { allowPrivate: false, allowCidrs: [] };
    const vpn = { allowPrivate: false, allowCidrs: ['10.20.0.0/16'] };
    await expect(resolveTarget('https://fhir.example.org/r4', none, PUBLIC)).resolves.toMatchObject({ address: '93.184.216.34' });
    await expect(resolveTarget('http://fhir.example.org/r4', none, PUBLIC)).rejects.toThrow(
      /http:\/\/ sends in clear text.*use https:\/\//,
    );
    await expect(resolveTarget('http://ehr.hospital.local/hook', none, VPN)).rejects.toThrow(/OUTBOUND_ALLOW_CIDRS/);
    await expect(resolveTarget('http://ehr.hospital.local/hook', vpn, VPN)).resolves.toMatchObject({ address: '10.20.30.40' });
    await expect(resolveTarget('https://ehr.hospital.local/hook', vpn, VPN)).resolves.toMatchObject({ address: '10.20.30.40' });
    await expect(resolveTarget('http://fhir.example.org/r4', vpn, PUBLIC)).rejects.toBeInstanceOf(SsrfError);
    await expect(resolveTarget('http://fhir.example.org/r4', { allowPrivate: true }, PUBLIC)).resolves.toBeDefined();
    await expect(resolveMllpUrl('mllps://93.184.216.34:2575', none)).resolves.toMatchObject({ tls: true });
    await expect(resolveMllpUrl('mllp://93.184.216.34:2575', none)).rejects.toThrow(/mllp:\/\/ sends in clear text.*use mllps:\/\//);
    await expect(resolveMllpUrl('mllp://10.20.30.40:2575', vpn)).resolves.toMatchObject({ tls: false, address: '10.20.30.40' });
    await expect(resolveMllpUrl('mllp://10.99.0.1:2575', vpn)).rejects.toThrow(/non-public/);
    // At delivery time too: a refused address is dead at once, nothing sent.
    const result = await sendHl7('mllp://127.0.0.1:9', 1_000, state(), { allowPrivate: false, allowCidrs: [] });
    expect(result).toMatchObject({ permanent: true, error: expect.stringMatching(/^refused: /) });
  });

  it('keeps one MLLP connection per destination and reuses it; a connection the destination dropped is opened again', async () => {
    const dest = await rawDestination(aa);
    stops.push(dest.stop);
    const s = state();
    const url = `mllp://127.0.0.1:${dest.port}`;
    for (let i = 0; i < 3; i++) expect(await sendHl7(url, 2_000, s)).toMatchObject({ delivered: true });
    // Three deliveries at once share it too, one after another.
    const together = await Promise.all([1, 2, 3].map(() => sendHl7(url, 2_000, s)));
    expect(together.every((r) => r.delivered)).toBe(true);
    expect(dest.connections).toBe(1);
    expect(dest.received.map((m) => m.header.getComponent(9, 1))).toEqual(Array(6).fill(['MDM', 'ADT']).flat());
    // MSH-5/MSH-6 name the receiver; PID-3 keeps the assigning authority.
    expect(dest.received[0].header.getField(5).toString()).toBe('EPIC-IB');
    expect(dest.received[0].header.getField(6).toString()).toBe('GENHOSP');
    expect(dest.received[0].getSegment('PID')!.getField(3).toString()).toBe('MRN-0099^^^GENHOSP^MR');
    dest.dropConnections();
    await new Promise((r) => setTimeout(r, 100));
    expect(await sendHl7(url, 2_000, s)).toMatchObject({ delivered: true });
    expect(dest.connections).toBe(2);
  });

  it('reads an ACK up to 1 MB: a larger answer fails the attempt (retried) and is not kept', async () => {
    const huge = mllpFrame(Buffer.alloc(2 * 1024 * 1024, 'A'.charCodeAt(0)));
    const dest = await rawDestination(() => huge);
    stops.push(dest.stop);
    const result = await sendHl7(`mllp://127.0.0.1:${dest.port}`, 5_000, state());
    expect(result.delivered).toBeUndefined();
    expect(result.permanent).toBeFalsy();
    expect(result.error).toMatch(/ACK larger than 1048576 bytes/);
  });

  it("verifies an mllps:// destination's certificate: trusted, delivered over TLS; untrusted, not sent", async () => {
    const cert = selfSignedCertificate('hospital-interface');
    const dest = await rawDestination(aa, { cert: cert.cert, key: cert.key });
    stops.push(dest.stop);
    const url = `mllps://127.0.0.1:${dest.port}`;
    const trusting = state(new MllpClientPool({ ca: cert.cert }));
    expect(await sendHl7(url, 3_000, trusting)).toMatchObject({ delivered: true });
    const untrusted = await sendHl7(url, 3_000, state());
    expect(untrusted.delivered).toBeUndefined();
    expect(untrusted.error).toMatch(/self.signed|certificate/i);
    expect(dest.received).toHaveLength(2); // the trusted delivery's MDM^T02 and ADT^A08 only
  });

  it('reads a token response up to 64 KB: a 150 MB one is cut off, the process never holds it', async () => {
    const chunk = Buffer.alloc(64 * 1024, 'a'.charCodeAt(0));
    let sent = 0;
    const server = http.createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('{"access_token":"');
      const pump = () => {
        while (sent < 150 * 1024 * 1024 && !res.destroyed) {
          sent += chunk.length;
          if (!res.write(chunk)) return void res.once('drain', pump);
        }
        res.end('","expires_in":300}');
      };
      pump();
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
    stops.push(() => new Promise<void>((r) => (server.closeAllConnections(), server.close(() => r()))));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const privateKey = generateKeyPairSync('ec', { namedCurve: 'secp384r1' }).privateKey.export({ format: 'pem', type: 'pkcs8' }) as string;
    global.gc?.();
    const before = process.memoryUsage().rss;
    let peak = before;
    const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 10);
    const result = await fhirTransport.send(
      { deliveryId: randomUUID(), endpointId: randomUUID(), url: `${base}/fhir`, rules: LOOPBACK },
      { client: { token_url: `${base}/token`, client_id: 'c' }, privateKey, bundle: noteBundle(note(), new Date()) },
      10_000,
      new SmartTokenCache(),
    );
    clearInterval(sampler);
    expect(result.error).toMatch(/token: token response larger than 65536 bytes/);
    // The server stopped being read long before 150 MB (it may have queued some in socket buffers).
    expect(sent).toBeLessThan(20 * 1024 * 1024);
    expect(peak - before).toBeLessThan(64 * 1024 * 1024);
    console.log(
      `[figure] 150 MB token response: ${(sent / 1048576).toFixed(1)} MB written by the server before it was cut, RSS +${((peak - before) / 1048576).toFixed(1)} MB`,
    );
  });
});
