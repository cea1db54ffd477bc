import { randomUUID } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { withTransaction } from '../../src/db/transaction.js';
import { recordEvent } from '../../src/outbound-events/outbox.repo.js';
import { startIsolatedTestApp, type TestApp } from '../helpers/test-app.js';
import { receivers, subscribe } from './webhooks.builders.js';

const POLL = { timeout: 20_000, interval: 100 };

// A process that opens a second runtime after closing the first (a restart in place, the
// benchmarks, a test file with two apps) must deliver with the second one's database and
// connections: the delivery job's handler is made per job runner, not once per process.
describe('outbound delivery in a second runtime of the same process', () => {
  const rxs = receivers();
  const apps: TestApp[] = [];
  afterAll(async () => {
    await rxs.stopAll();
    for (const app of apps) await app.close();
  });

  const deliverOne = async (t: TestApp) => {
    const rx = await rxs.start();
    const groupId = `g-${randomUUID()}`;
    await subscribe(t.app, { url: rx.url, group_id: groupId });
    const data = { transcription_id: randomUUID(), user_id: 'u-1', group_id: groupId, duration_seconds: 3, language_used: 'en' };
    await withTransaction(t.deps.pool, (tx) => recordEvent(tx, { type: 'transcription.created', groupId, data }));
    await expect.poll(() => rx.received.length, POLL).toBe(1);
    expect(rx.received[0].json.data).toMatchObject({ transcription_id: data.transcription_id });
  };

  it('delivers in the first runtime, and again after it closed and another opened on another database', async () => {
    const first = await startIsolatedTestApp({ workers: true });
    apps.push(first);
    await deliverOne(first);
    await first.close();
    apps.pop();

    const second = await startIsolatedTestApp({ workers: true });
    apps.push(second);
    await deliverOne(second);
  });
});
