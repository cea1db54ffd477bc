import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mllpFrame } from '../../src/modules/hl7/mllp-frames.js';
import { freePort } from '../../src/lib/free-port.js';
import { startWorkerProcess } from '../helpers/chaos-worker.js';
import { signalGroup, type Spawned } from '../helpers/process.js';
import { isolatedDatabase } from '../helpers/receiver.js';
import { TEST_OPERATOR_KEY } from '../helpers/test-app.js';
import { adtA04 } from './hl7.builders.js';
import { ackCode, MllpPeer } from './mllp-peer.js';

/** The service as started in production (`src/main.ts`): the MLLP listener belongs to the API role. */
describe('the MLLP listener in the running service', () => {
  let db: Awaited<ReturnType<typeof isolatedDatabase>>;
  const processes: Spawned[] = [];
  beforeAll(async () => {
    db = await isolatedDatabase();
  });
  afterAll(async () => {
    for (const p of processes) signalGroup(p.child, 'SIGKILL');
    await db?.drop();
  });

  it('listens on HL7_MLLP_PORT in the API role, answers, and stops on SIGTERM with exit 0', async () => {
    const mllpPort = await freePort();
    const httpPort = await freePort();
    const proc = await startWorkerProcess(db.url, {
      ROLE: 'api',
      HL7_MLLP_PORT: String(mllpPort),
      PORT: String(httpPort),
      LOG_LEVEL: 'info',
    });
    processes.push(proc);
    // No sender allows any address yet: the connection is closed before a byte is read.
    const early = await MllpPeer.connect(mllpPort);
    early.write(mllpFrame(Buffer.from(adtA04({ app: 'NOBODY', facility: 'NOWHERE' }).text)));
    expect(await early.acks(1, 3_000)).toHaveLength(0);
    expect(early.closed).toBe(true);
    const created = await request(`http://127.0.0.1:${httpPort}`)
      .post('/api/v1/integrations')
      .set('x-api-key', TEST_OPERATOR_KEY)
      .send({
        name: 'lab',
        source: 'hl7',
        group_ids: ['g'],
        sending_application: 'LAB',
        sending_facility: 'HOSP',
        allowed_ips: ['127.0.0.1'],
      });
    expect(created.status).toBe(201);
    // The listener reads the allowed addresses again within a second of a refusal: then it serves.
    let peer = await MllpPeer.connect(mllpPort);
    const deadline = Date.now() + 10_000;
    while (Date.now() < deadline) {
      const acks = await peer.acks(0, 0);
      await new Promise((r) => setTimeout(r, 300));
      if (!peer.closed && acks.length === 0) break;
      peer = await MllpPeer.connect(mllpPort);
    }
    // No integration has this MSH-3/MSH-4: the one AR, from a live listener.
    expect(ackCode(await peer.send(adtA04({ app: 'NOBODY', facility: 'NOWHERE' }).text))).toBe('AR');
    expect(proc.output()).toMatch(/"message":"mllp listening"/);
    process.kill(proc.child.pid!, 'SIGTERM');
    expect(await proc.exited).toBe(0);
    await expect.poll(() => peer.closed).toBe(true);
    expect(proc.output()).toMatch(/"message":"stopped"/);
  }, 90_000);

  it('does not listen in the worker role', async () => {
    const mllpPort = await freePort();
    const proc = await startWorkerProcess(db.url, { ROLE: 'worker', HL7_MLLP_PORT: String(mllpPort) });
    processes.push(proc);
    await expect(MllpPeer.connect(mllpPort)).rejects.toThrow(/ECONNREFUSED/);
  }, 90_000);
});
