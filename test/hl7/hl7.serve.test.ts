import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../../src/lib/free-port.js';
import { startWorkerProcess } from '../helpers/chaos-worker.js';
import { signalGroup, type Spawned } from '../helpers/process.js';
import { isolatedDatabase } from '../helpers/receiver.js';
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
    const proc = await startWorkerProcess(db.url, {
      ROLE: 'api',
      HL7_MLLP_PORT: String(mllpPort),
      PORT: String(await freePort()),
      LOG_LEVEL: 'info',
    });
    processes.push(proc);
    const peer = await MllpPeer.connect(mllpPort);
    // No integration has this MSH-3/MSH-4: AR, from a live listener.
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
