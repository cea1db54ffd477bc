/**
 * Sign-off to the hospital: the time from `POST /v1/clinical-notes/{id}/sign` (answered 200) to
 * the AA of the MDM^T04 at an HL7 destination (the signature recorded, note.signed fanned out,
 * the delivery job claimed, the T04 built, sent over MLLP and acknowledged). One signature at a
 * time, after two to warm up; the destination answers each message AA at once.
 *
 *   tsx bench/signoff-latency.ts [--signs 20]
 */
import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { parseArgs } from 'node:util';
import { Hl7Server } from '@medplum/hl7';
import { createApp } from '../src/app.js';
import { freePort } from '../src/lib/free-port.js';
import { insertEndpoint } from '../src/modules/outbound-webhooks/endpoints/webhook-endpoints.repo.js';
import { generateWebhookSecret } from '../src/lib/webhook-secret.js';
import { startJobRunner } from '../src/job-runner.js';
import { createBenchDatabase } from './lib/database.js';
import { benchHeaders, openBenchRuntime } from './lib/runtime.js';
import { isMain, runStandalone } from './lib/standalone.js';
import { pct } from './lib/stats.js';
import type { BenchContext, BenchResult } from './lib/types.js';

export interface SignoffBenchOptions extends BenchContext {
  signs?: number;
}

export async function run(options: SignoffBenchOptions): Promise<BenchResult[]> {
  const count = options.signs ?? 20;
  const db = await createBenchDatabase(options.adminUrl, 'signoff');
  const { runtime } = await openBenchRuntime(db.url, { WEBHOOK_ALLOW_PRIVATE: 'true' });
  const { deps } = runtime;
  // The AA's send time of each MDM^T04, by its TXA-12 (the note id).
  const acked = new Map<string, number>();
  const port = await freePort();
  const destination = new Hl7Server((connection) => {
    connection.addEventListener('message', ({ message }) => {
      connection.send(message.buildAck({ ackCode: 'AA' }));
      if (message.header.getComponent(9, 2) === 'T04') acked.set(message.getSegment('TXA')!.getField(12).toString(), performance.now());
    });
  });
  destination.start(port);
  const workers = await startJobRunner(deps);
  const server = createServer(createApp(deps).listener).listen(0, '127.0.0.1');
  try {
    await new Promise<void>((resolve) => server.once('listening', () => resolve()));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const headers = await benchHeaders();
    await insertEndpoint(deps.pool, {
      id: randomUUID(),
      url: `mllp://127.0.0.1:${port}`,
      events: ['note.signed'],
      groupId: 'bench-group',
      description: null,
      thin: false,
      secret: generateWebhookSecret(),
      allowPrivate: true,
      kind: 'hl7-mllp',
    });
    const content = { subjective: 'Cough for three days.', objective: 'T 38.4 C.', assessment: 'Pneumonia.', plan: 'Amoxicillin.' };
    const times: number[] = [];
    options.log(`signoff: ${count} signatures, one at a time, to an MLLP destination`);
    for (let i = 0; i < count + 2; i++) {
      const created = await fetch(`${base}/v1/clinical-notes`, {
        method: 'POST',
        headers: { ...headers, 'x-patient': `MRN-S-${i}` },
        body: JSON.stringify({ template: 'SOAP', ai_generated_content: content }),
      });
      const note = (await created.json()) as { id: string };
      const started = performance.now();
      const signed = await fetch(`${base}/v1/clinical-notes/${note.id}/sign`, {
        method: 'POST',
        headers: { ...headers, 'if-match': '"1"' },
        body: JSON.stringify({ codes: ['J18.9'] }),
      });
      if (signed.status !== 200) throw new Error(`sign answered ${signed.status}`);
      await signed.arrayBuffer();
      while (!acked.has(note.id)) {
        if (performance.now() - started > 30_000) throw new Error('no MDM^T04 at the destination after 30 s');
        await new Promise((r) => setTimeout(r, 2));
      }
      if (i >= 2) times.push(acked.get(note.id)! - started);
    }
    return [
      {
        name: 'sign -> MDM^T04 AA at the destination p50',
        value: pct(times, 50),
        unit: 'ms',
        target: { op: '<=', value: 1_000 },
        digits: 1,
        note: `${times.length} signatures, one at a time (ADT^A08 follows on the same connection)`,
      },
      { name: 'sign -> MDM^T04 AA at the destination p95', value: pct(times, 95), unit: 'ms', digits: 1 },
      { name: 'sign -> MDM^T04 AA at the destination max', value: Math.max(...times), unit: 'ms', digits: 1 },
    ];
  } finally {
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
    workers.stop();
    await destination.stop({ forceDrainTimeoutMs: 100 }).catch(() => {});
    await runtime.stop({ graceful: false });
    await db.drop();
  }
}

if (isMain(import.meta.url)) {
  const { values } = parseArgs({ options: { signs: { type: 'string', default: '20' } } });
  await runStandalone((ctx) => run({ ...ctx, signs: Number(values.signs) }));
}
