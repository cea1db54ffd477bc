/**
 * HL7 v2 over MLLP: ACK latency (message in -> AA, i.e. the event and its job committed) under
 * 20 concurrent senders, each on its own connection sending MDM^T02 messages with a 40-line
 * transcript one after another (as interface engines do); then, on a fresh database with the
 * workers running, the end-to-end time from an MDM^T02 in to the MDM^T02 out at an HL7
 * destination (pipeline: transcription, extraction, note, codes, note.ready, delivery).
 *
 *   tsx bench/hl7-ack-latency.ts [--senders 20] [--messages 50] [--e2e 10]
 */
import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import net, { type AddressInfo } from 'node:net';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { Hl7Message } from '@medplum/core';
import { Hl7Client, Hl7Server } from '@medplum/hl7';
import type { AppDeps } from '../src/app-deps.js';
import { createApp } from '../src/app.js';
import { startJobRunner } from '../src/job-runner.js';
import { freePort } from '../src/lib/free-port.js';
import { startMllpListener } from '../src/modules/hl7/mllp-listener.js';
import { insertIntegration } from '../src/modules/integrations/integrations.repo.js';
import { insertEndpoint } from '../src/modules/outbound-webhooks/endpoints/webhook-endpoints.repo.js';
import { generateWebhookSecret } from '../src/lib/webhook-secret.js';
import { createBenchDatabase } from './lib/database.js';
import { openBenchRuntime } from './lib/runtime.js';
import { isMain, runStandalone } from './lib/standalone.js';
import { pct } from './lib/stats.js';
import type { BenchContext, BenchResult } from './lib/types.js';

export interface Hl7BenchOptions extends BenchContext {
  senders?: number;
  messages?: number;
  e2e?: number;
}

const GROUP = 'bench-hl7-group';
const VISIT = [
  '[doctor] hi, what brings you in today?',
  "[patient] i've had a cough and a fever for three days.",
  '[doctor] your temperature is 38.4 and lungs have crackles on the right.',
  '[doctor] this looks like community acquired pneumonia. i will start amoxicillin 1 gram three times a day.',
];

export function mdm(controlId: string, patient: string): Hl7Message {
  const lines = Array.from({ length: 40 }, (_, i) => VISIT[i % VISIT.length]);
  return Hl7Message.parse(
    [
      `MSH|^~\\&|BENCH|BENCHFAC|CLINIGATE|CLINIGATE|20261124093000||MDM^T02^MDM_T02|${controlId}|P|2.5|||AL|NE||UNICODE UTF-8`,
      'EVN|T02|20261124093000',
      `PID|1||${patient}^^^HOSP^MR||Doe^Jane`,
      'PV1|1|O|CLINIC^1^1||||DR1^House|||||||||||||V-1',
      'TXA|1|SOAP|TX|20261124093000|DR1^House||||DR1^House|||DOC-1||||||AU',
      ...lines.map((l, i) => `OBX|${i + 1}|TX|TRANSCRIPT^Transcript^L||${l}||||||F`),
    ].join('\r'),
  );
}

async function openHl7(adminUrl: string, prefix: string) {
  const db = await createBenchDatabase(adminUrl, prefix);
  const { runtime } = await openBenchRuntime(db.url, { WEBHOOK_ALLOW_PRIVATE: 'true' });
  const { deps } = runtime;
  const id = randomUUID();
  await insertIntegration(deps.pool, {
    id,
    name: 'bench feed',
    source: 'hl7',
    groupIds: [GROUP],
    secret: deps.secrets.seal('unused', { table: 'integrations', column: 'secret', id }),
    sendingApplication: 'BENCH',
    sendingFacility: 'BENCHFAC',
    allowedIps: ['127.0.0.1'],
  });
  // The bench's senders all connect from 127.0.0.1; the service allows 10 connections per address
  // (hospital interface engines come from addresses of their own), so the bench allows its 20.
  const listener = await startMllpListener(deps, { port: 0, host: '127.0.0.1', limits: { maxPerPeer: 50 } });
  return { db, runtime, deps, listener };
}

async function ackLatency(options: Hl7BenchOptions, senders: number, messages: number): Promise<BenchResult[]> {
  const { db, runtime, listener } = await openHl7(options.adminUrl, 'hl7ack');
  try {
    const clients = Array.from({ length: senders }, () => new Hl7Client({ host: '127.0.0.1', port: listener.port }));
    const send = async (client: Hl7Client) => {
      const started = performance.now();
      const ack = await client.sendAndWait(mdm(`B${randomUUID().replace(/-/g, '').slice(0, 19)}`, `MRN-${randomUUID().slice(0, 8)}`), {
        timeoutMs: 30_000,
      });
      const code = ack.getSegment('MSA')?.getField(1).toString();
      if (code !== 'AA') throw new Error(`ACK ${code}`);
      return performance.now() - started;
    };
    // Warm-up: connections open, statements prepared, JIT warm.
    await Promise.all(
      clients.map(async (c) => {
        for (let i = 0; i < 5; i++) await send(c);
      }),
    );
    options.log(`hl7: ${senders} senders x ${messages} MDM^T02 (40 OBX lines each)`);
    const latencies: number[] = [];
    const started = performance.now();
    await Promise.all(
      clients.map(async (c) => {
        for (let i = 0; i < messages; i++) latencies.push(await send(c));
      }),
    );
    const seconds = (performance.now() - started) / 1000;
    await Promise.all(clients.map((c) => c.close()));
    const note = `${latencies.length} MDM^T02 from ${senders} concurrent senders, ${(latencies.length / seconds).toFixed(0)} messages/s`;
    const flood = await healthDuringFloods(runtime.deps, listener.port, options);
    return [
      ...flood,
      { name: 'hl7 MDM^T02 in -> AA p50', value: pct(latencies, 50), unit: 'ms', target: { op: '<=', value: 50 }, digits: 1, note },
      { name: 'hl7 MDM^T02 in -> AA p99', value: pct(latencies, 99), unit: 'ms', target: { op: '<=', value: 250 }, digits: 1 },
      { name: 'hl7 messages acknowledged per second', value: latencies.length / seconds, unit: 'messages/s' },
    ];
  } finally {
    await listener.stop(1_000);
    await runtime.stop({ graceful: false });
    await db.drop();
  }
}

/**
 * DESIGN 2026-11-26: reading a message never holds the HTTP loop 50 ms. A crafted frame (MSH, then
 * a run of CRs, which a quadratic trim would take seconds over) of 1 MB (read in the HL7 read
 * thread) and of 60 KB (read on the loop), five each, while /api/v1/health is asked every
 * 20 ms on one keep-alive connection: the slowest health answer and the loop's longest stall.
 */
async function healthDuringFloods(deps: AppDeps, mllpPort: number, options: Hl7BenchOptions): Promise<BenchResult[]> {
  const server = createServer(createApp(deps).listener).listen(0, '127.0.0.1');
  await new Promise((r) => server.once('listening', r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/v1/health`;
  const socket = net.connect(mllpPort, '127.0.0.1');
  await new Promise((r) => socket.once('connect', r));
  const header = 'MSH|^~\\&|BENCH|BENCHFAC|CG|CG|20261124093000||ADT^A04^ADT_A01|FLOOD|P|2.5';
  const health: number[] = [];
  const loop = monitorEventLoopDelay({ resolution: 5 });
  try {
    await (await fetch(url)).arrayBuffer();
    for (const size of [1024 * 1024 - 200, 60 * 1024]) {
      const frame = Buffer.concat([Buffer.from([0x0b]), Buffer.from(header), Buffer.alloc(size, 0x0d), Buffer.from([0x1c, 0x0d])]);
      for (let round = 0; round < 5; round++) {
        let done = false;
        const acked = new Promise<void>((resolve) => socket.once('data', () => resolve()));
        loop.enable();
        const asking = (async () => {
          while (!done) {
            const started = performance.now();
            await (await fetch(url)).arrayBuffer();
            health.push(performance.now() - started);
            await new Promise((r) => setTimeout(r, 20));
          }
        })();
        socket.write(frame);
        await acked;
        done = true;
        await asking;
        loop.disable();
      }
    }
  } finally {
    socket.destroy();
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
  }
  options.log(`hl7: /api/v1/health during ten CR flood frames: ${health.length} answers`);
  return [
    {
      name: 'hl7 CR flood: slowest /api/v1/health',
      value: Math.max(...health),
      unit: 'ms',
      target: { op: '<=', value: 100 },
      digits: 1,
      note: 'five 1 MB and five 60 KB frames of CRs after an MSH, health asked every 20 ms',
    },
    { name: 'hl7 CR flood: longest event-loop stall', value: loop.max / 1e6, unit: 'ms', target: { op: '<=', value: 50 }, digits: 1 },
  ];
}

async function endToEnd(options: Hl7BenchOptions, count: number): Promise<BenchResult[]> {
  const { db, runtime, deps, listener } = await openHl7(options.adminUrl, 'hl7e2e');
  const arrived = new Map<string, number>();
  const destinationPort = await freePort();
  const destination = new Hl7Server((connection) => {
    connection.addEventListener('message', ({ message }) => {
      if (message.header.getComponent(9, 1) === 'MDM') arrived.set(message.getSegment('PID')!.getComponent(3, 1), performance.now());
      connection.send(message.buildAck({ ackCode: 'AA' }));
    });
  });
  destination.start(destinationPort);
  const workers = await startJobRunner(deps);
  try {
    await insertEndpoint(deps.pool, {
      id: randomUUID(),
      url: `mllp://127.0.0.1:${destinationPort}`,
      events: ['note.ready'],
      groupId: GROUP,
      description: null,
      thin: false,
      secret: generateWebhookSecret(),
      allowPrivate: true,
      kind: 'hl7-mllp',
    });
    const client = new Hl7Client({ host: '127.0.0.1', port: listener.port });
    const times: number[] = [];
    options.log(`hl7: ${count} MDM^T02 end to end, one at a time`);
    for (let i = 0; i < count + 2; i++) {
      const patient = `MRN-E2E-${i}`;
      const started = performance.now();
      await client.sendAndWait(mdm(`E${randomUUID().replace(/-/g, '').slice(0, 19)}`, patient), { timeoutMs: 30_000 });
      while (!arrived.has(patient)) {
        if (performance.now() - started > 60_000) throw new Error('no MDM^T02 out after 60 s');
        await new Promise((r) => setTimeout(r, 5));
      }
      if (i >= 2) times.push(arrived.get(patient)! - started); // the first two warm the pipeline
    }
    await client.close();
    return [
      {
        name: 'hl7 MDM^T02 in -> MDM^T02 out p50',
        value: pct(times, 50),
        unit: 'ms',
        target: { op: '<=', value: 2_000 },
        note: `${times.length} visits, local engine, one at a time`,
      },
      { name: 'hl7 MDM^T02 in -> MDM^T02 out max', value: Math.max(...times), unit: 'ms' },
    ];
  } finally {
    workers.stop();
    await listener.stop(1_000);
    await destination.stop({ forceDrainTimeoutMs: 100 }).catch(() => {});
    await runtime.stop({ graceful: false });
    await db.drop();
  }
}

export async function run(options: Hl7BenchOptions): Promise<BenchResult[]> {
  return [...(await ackLatency(options, options.senders ?? 20, options.messages ?? 50)), ...(await endToEnd(options, options.e2e ?? 10))];
}

if (isMain(import.meta.url)) {
  const { values } = parseArgs({
    options: {
      senders: { type: 'string', default: '20' },
      messages: { type: 'string', default: '50' },
      e2e: { type: 'string', default: '10' },
    },
  });
  await runStandalone((ctx) =>
    run({ ...ctx, senders: Number(values.senders), messages: Number(values.messages), e2e: Number(values.e2e) }),
  );
}
