import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IngestBatcher } from '../../src/modules/inbound-events/ingest-batcher.js';
import type { NewInboundEvent } from '../../src/modules/inbound-events/inbound-events.repo.js';
import { inboundRowId } from '../../src/modules/inbound-events/receive-event.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';

describe('inbound webhooks: events stored by shared statements (IngestBatcher)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  const event = (eventId: string, transcript = 'short visit'): NewInboundEvent => ({
    id: inboundRowId('ehr', eventId),
    source: 'ehr',
    eventId,
    type: 'encounter.transcript',
    occurredAt: new Date().toISOString(),
    groupId: 'batch-group',
    data: { transcript },
    correlationId: randomUUID(),
  });
  // SQL: the job rows are pg-boss's; this test exists to show each event gets one job, copies included.
  const jobs = async (ids: string[]) =>
    (await t.deps.pool.query(`SELECT count(*)::int AS n FROM pgboss.job WHERE name = 'inbound-event' AND data->>'id' = ANY($1)`, [ids]))
      .rows[0].n;

  it('stores each event and its job once when many arrive together, copies included', async () => {
    // One statement in flight: every later event waits and joins the next batch.
    const batcher = new IngestBatcher(t.deps.pool, { maxInFlight: 1 });
    const ids = Array.from({ length: 30 }, () => `batch-${randomUUID()}`);
    const answers = await Promise.all([...ids, ...ids.slice(0, 10)].map((id) => batcher.store(event(id))));
    expect(answers.slice(0, 30)).toEqual(Array(30).fill('stored'));
    expect(answers.slice(30)).toEqual(Array(10).fill('duplicate'));
    expect(await jobs(ids.map((id) => inboundRowId('ehr', id)))).toBe(30);
  });

  it('fails only the event the database refuses, not the others of its batch', async () => {
    const batcher = new IngestBatcher(t.deps.pool, { maxInFlight: 1 });
    const good = Array.from({ length: 5 }, () => `batch-${randomUUID()}`);
    const bad = `batch-${randomUUID()}`;
    // jsonb refuses \u0000: that event's INSERT fails.
    const results = await Promise.allSettled(
      [...good.slice(0, 2), bad, ...good.slice(2)].map((id) => batcher.store(event(id, id === bad ? 'a\u0000b' : 'ok'))),
    );
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'fulfilled', 'rejected', 'fulfilled', 'fulfilled', 'fulfilled']);
    expect(await jobs(good.map((id) => inboundRowId('ehr', id)))).toBe(5);
    expect(await jobs([inboundRowId('ehr', bad)])).toBe(0);
  });
});
