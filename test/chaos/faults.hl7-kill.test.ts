import { randomUUID } from 'node:crypto';
import type { PgBoss } from 'pg-boss';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../../src/lib/free-port.js';
import { adtA04, mdmT02, transcriptLines, type Hl7Sender } from '../hl7/hl7.builders.js';
import { MllpDestination } from '../hl7/mllp-destination.js';
import { ackCode, MllpPeer } from '../hl7/mllp-peer.js';
import { killHard, startSupervisor, startWorkerProcess } from '../helpers/chaos-worker.js';
import { signalGroup, type Spawned } from '../helpers/process.js';
import { isolatedDatabase } from '../helpers/receiver.js';
import { startTestApp, TEST_OPERATOR_KEY, type TestApp } from '../helpers/test-app.js';

const OPERATOR = { 'x-api-key': TEST_OPERATOR_KEY };

/**
 * The service (ROLE=all, MLLP listener on) is SIGKILLed twice: once while an interface engine
 * streams MDM^T02 messages in, once while note.ready goes out to a slow HL7 destination. The
 * engine does what engines do: resend a message until it gets its ACK. Afterwards every message
 * was stored and processed once, and every note reached the destination, any resend carrying
 * the same MSH-10 (which the destination's dedup drops).
 */
describe('fault: the service killed with SIGKILL mid-HL7, both directions', () => {
  let db: Awaited<ReturnType<typeof isolatedDatabase>>;
  let t: TestApp;
  let supervisor: PgBoss;
  let dest: MllpDestination;
  const processes: Spawned[] = [];
  const group = `group-${randomUUID()}`;
  const sender: Hl7Sender = { app: 'RHAPSODY', facility: `CHAOS-${randomUUID().slice(0, 6)}` };

  beforeAll(async () => {
    db = await isolatedDatabase();
    t = await startTestApp({ env: { DATABASE_URL: db.url } });
    supervisor = await startSupervisor(db.url);
    dest = await MllpDestination.start();
    const integration = await request(t.app)
      .post('/api/v1/integrations')
      .set(OPERATOR)
      .send({
        name: 'chaos feed',
        source: 'hl7',
        group_ids: [group],
        sending_application: sender.app,
        sending_facility: sender.facility,
        allowed_ips: ['127.0.0.1'],
      });
    expect(integration.status).toBe(201);
    const endpoint = await request(t.app)
      .post('/api/v1/webhook-endpoints')
      .set(OPERATOR)
      .send({ kind: 'hl7-mllp', url: dest.url, group_id: group });
    expect(endpoint.status).toBe(201);
  });
  afterAll(async () => {
    for (const p of processes) signalGroup(p.child, 'SIGKILL');
    await dest?.stop();
    await supervisor?.stop({ graceful: false });
    await t?.close();
    await db?.drop();
  });

  it('loses no message and processes none twice; every note arrives, resends under the same MSH-10', async () => {
    const mllpPort = await freePort();
    const start = async () => {
      const env = { ROLE: 'all', HL7_MLLP_PORT: String(mllpPort), PORT: String(await freePort()) };
      processes.push(await startWorkerProcess(db.url, env));
    };
    await start();

    // An interface engine: one connection, one message at a time, resent until it is ACKed AA.
    const acked: string[] = [];
    let resends = 0;
    const sendUntilAcked = async (text: string, controlId: string, peer: { current?: MllpPeer }) => {
      for (;;) {
        try {
          if (!peer.current || peer.current.closed) peer.current = await MllpPeer.connect(mllpPort);
          const ack = await peer.current.send(text, 'utf8', 3_000);
          if (ackCode(ack) === 'AA') {
            acked.push(controlId);
            return;
          }
        } catch {
          /* refused while down, closed mid-message, no ACK: resend */
        }
        resends++;
        peer.current?.close();
        peer.current = undefined;
        await new Promise((r) => setTimeout(r, 200));
      }
    };
    const messages = Array.from({ length: 24 }, (_, i) =>
      i % 6 === 5 ? adtA04(sender, { patient: `MRN-C${i}` }) : mdmT02(sender, { patient: `MRN-C${i}`, lines: transcriptLines(8) }),
    );
    const notes = messages.filter((m) => m.text.includes('MDM^T02')).length;
    const peer: { current?: MllpPeer } = {};
    const feed = (async () => {
      for (const m of messages) await sendUntilAcked(m.text, m.controlId, peer);
    })();

    // Kill 1: mid-stream inbound.
    await expect.poll(() => acked.length, { timeout: 60_000, interval: 20 }).toBeGreaterThanOrEqual(6);
    await killHard(processes[0]);
    await start();
    await feed;
    peer.current?.close();

    // Kill 2: mid-delivery outbound (the destination answers slowly).
    dest.delayMs = 700;
    await expect.poll(() => dest.of('MDM^T02').length, { timeout: 60_000, interval: 20 }).toBeGreaterThanOrEqual(3);
    await killHard(processes[1]);
    dest.delayMs = 0;
    await start();

    const controlIds = messages.map((m) => m.controlId);
    await expect
      .poll(
        async () =>
          // SQL: chaos guard: every stored message counted by status after the kills (nothing lost).
          (
            await t.deps.pool.query(`SELECT count(*)::int AS n FROM inbound_events WHERE event_id = ANY($1) AND status = 'completed'`, [
              controlIds,
            ])
          ).rows[0].n,
        {
          timeout: 120_000,
          interval: 500,
        },
      )
      .toBe(messages.length);
    // SQL: chaos guard: nothing duplicated (events, note.ready in the outbox, notes of the group: no API lists these).
    const rows = await t.deps.pool.query(
      `SELECT (SELECT count(*) FROM inbound_events WHERE event_id = ANY($1))::int AS events,
              (SELECT count(*) FROM outbox WHERE type = 'note.ready' AND group_id = $2)::int AS ready,
              (SELECT count(*) FROM clinical_notes WHERE group_id = $2)::int AS notes`,
      [controlIds, group],
    );
    expect(rows.rows[0]).toEqual({ events: messages.length, ready: notes, notes });

    await expect
      // SQL: chaos guard: every delivery row counted (nothing lost, nothing sent twice).
      .poll(
        async () => (await t.deps.pool.query(`SELECT count(*)::int AS n FROM webhook_deliveries WHERE status = 'delivered'`)).rows[0].n,
        { timeout: 90_000, interval: 500 },
      )
      .toBe(notes);
    const byNote = new Map<string, Set<string>>();
    for (const r of dest.of('MDM^T02')) {
      const note = r.message.getSegment('TXA')!.getComponent(12, 1);
      byNote.set(note, (byNote.get(note) ?? new Set()).add(r.message.header.getComponent(10, 1)));
    }
    expect(byNote.size).toBe(notes);
    for (const ids of byNote.values()) expect(ids.size).toBe(1);
    console.log(
      `[figure] hl7 chaos: ${messages.length} messages, ${resends} resends by the sender, ${dest.of('MDM^T02').length} MDM^T02 received for ${notes} notes`,
    );
  }, 300_000);
});
