import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { pauseLeft } from '../../src/jobs/loop-pace.js';
import { itemsToRetry, jobEventIds } from '../../src/modules/inbound-events/process-events.js';

/** One job may name the catalog events of a whole ingest statement; its job loop paces its fetches. */
describe('inbound job batches (pure parts)', () => {
  it('reads the events a job names: one {id} or many {ids}; anything else names none', () => {
    const [a, b] = [randomUUID(), randomUUID()];
    expect(jobEventIds({ id: a })).toEqual([a]);
    expect(jobEventIds({ ids: [a, b] })).toEqual([a, b]);
    expect(jobEventIds({ ids: [] })).toBeUndefined();
    expect(jobEventIds({ id: 'not-a-uuid' })).toBeUndefined();
    expect(jobEventIds(null)).toBeUndefined();
  });

  it('retries each job by its own events: retried when one of them asks for a retry, else completed', () => {
    const [a, b, c] = [randomUUID(), randomUUID(), randomUUID()];
    const j1 = { data: { ids: [a, b] } };
    const j2 = { data: { id: c } };
    expect(itemsToRetry([j1, j2], new Set([b]))).toEqual(new Set([j1]));
    expect(itemsToRetry([j1, j2], new Set())).toEqual(new Set());
    // A job whose data names no event never reaches here: defineJob drops it (test/jobs/define-job.test.ts).
  });

  it('pauses a loop for what is left of its pace after a short batch, never after a full one', () => {
    expect(pauseLeft(3, 50, 40, 300)).toBe(260);
    expect(pauseLeft(3, 50, 450, 300)).toBe(0);
    expect(pauseLeft(50, 50, 10, 300)).toBe(0);
    expect(pauseLeft(0, 50, 0, 0)).toBe(0);
  });
});
