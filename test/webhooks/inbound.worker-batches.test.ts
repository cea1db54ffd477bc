import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { jobEventIds, jobOutcomes } from '../../src/modules/inbound-webhooks/process-events.js';
import { pauseLeft } from '../../src/modules/inbound-webhooks/worker-pace.js';

/** Issue 20: one job may name the catalog events of a whole ingest statement; the worker paces its fetches. */
describe('inbound worker batches (pure parts)', () => {
  it('reads the events a job names: one {id} or many {ids}; anything else names none', () => {
    const [a, b] = [randomUUID(), randomUUID()];
    expect(jobEventIds({ id: a })).toEqual([a]);
    expect(jobEventIds({ ids: [a, b] })).toEqual([a, b]);
    expect(jobEventIds({ ids: [] })).toBeUndefined();
    expect(jobEventIds({ id: 'not-a-uuid' })).toBeUndefined();
    expect(jobEventIds(null)).toBeUndefined();
  });

  it('settles each job by its own events: failed (retried) when one of them asks for a retry, else completed', () => {
    const [a, b, c] = [randomUUID(), randomUUID(), randomUUID()];
    const results = jobOutcomes(
      [
        { jobId: 'j1', ids: [a, b] },
        { jobId: 'j2', ids: [c] },
        { jobId: 'j3', ids: undefined },
      ],
      new Set([b]),
    );
    expect(results).toEqual([
      { id: 'j1', status: 'failed', output: { message: 'processing failed; retried' } },
      { id: 'j2', status: 'completed' },
      { id: 'j3', status: 'failed', output: { message: 'job data is not {id: uuid} or {ids: uuid[]}' } },
    ]);
  });

  it('pauses a loop for what is left of its pace after a short batch, never after a full one', () => {
    expect(pauseLeft(3, 50, 40, 300)).toBe(260);
    expect(pauseLeft(3, 50, 450, 300)).toBe(0);
    expect(pauseLeft(50, 50, 10, 300)).toBe(0);
    expect(pauseLeft(0, 50, 0, 0)).toBe(0);
  });
});
