import type { PgBoss } from 'pg-boss';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineJob, isFinalAttempt, jobRequestId, startJobLoops, type JobDeps } from '../../src/jobs/define-job.js';
import { isPermanent, jobError, PermanentJobFailure } from '../../src/jobs/job-failure.js';
import { AppError } from '../../src/lib/errors.js';
import { createLogger } from '../../src/lib/logger.js';
import { currentContext } from '../../src/lib/request-context.js';

describe('one job policy for every queue', () => {
  it('the final attempt is the one with no retry left', () => {
    expect(isFinalAttempt({ retryCount: 0, retryLimit: 2 })).toBe(false);
    expect(isFinalAttempt({ retryCount: 2, retryLimit: 2 })).toBe(true);
    expect(isFinalAttempt({ retryCount: 0, retryLimit: 0 })).toBe(true);
  });

  it('the request id is the producer’s, else job-<id>', () => {
    expect(jobRequestId({ id: 'j1', data: { request_id: 'req-9' } })).toBe('req-9');
    expect(jobRequestId({ id: 'j1', data: { other: 1 } })).toBe('job-j1');
    expect(jobRequestId({ id: 'j1', data: null })).toBe('job-j1');
  });

  it('ours and client errors are permanent; others are retried', () => {
    expect(isPermanent(new PermanentJobFailure('x'))).toBe(true);
    expect(isPermanent(new AppError(404, 'Call c not found'))).toBe(true);
    expect(isPermanent(new AppError(503, 'down'))).toBe(false);
    expect(isPermanent(new Error('ECONNRESET'))).toBe(false);
  });

  it('a failure is stored by name and code, never by its message', () => {
    const err = Object.assign(new Error('duplicate key value (patient_id)=(P123)'), { code: '23505' });
    expect(jobError(err)).toEqual({ name: 'JobFailure', message: 'Error (23505)' });
  });
});

/** A pg-boss stand-in that hands the registered handler to the test. */
function fakeBoss() {
  const handlers: Array<(jobs: unknown[]) => Promise<unknown>> = [];
  const boss = {
    work: async (_name: string, _options: unknown, handler: (jobs: unknown[]) => Promise<unknown>) => {
      handlers.push(handler);
      return 'w';
    },
    notifyWorker: () => {},
    schedule: async () => {},
  } as unknown as PgBoss;
  return { boss, handlers };
}

const job = (data: unknown, retryCount = 0, retryLimit = 3) => ({
  id: 'job-1',
  data,
  retryCount,
  retryLimit,
  signal: new AbortController().signal,
});

describe('startJobLoops', () => {
  const logger = createLogger('error', { silent: true });

  async function worker(handle: (data: { id: string }) => Promise<void>) {
    const { boss, handlers } = fakeBoss();
    const calls: string[] = [];
    const failures: unknown[] = [];
    const def = defineJob<{ id: string; request_id?: string }, JobDeps>({
      queue: { name: 'test-queue', options: {} },
      schema: z.object({ id: z.string(), request_id: z.string().optional() }),
      context: (data) => ({ correlationId: `corr-${data.id}` }),
      async handle(_deps, data) {
        calls.push(`${data.id} ${currentContext()?.requestId} ${currentContext()?.correlationId}`);
        await handle(data);
      },
      onFinalFailure: async (_deps, _data, err) => {
        failures.push(err);
      },
    });
    await startJobLoops({ boss, logger }, def);
    return { run: (j: unknown) => handlers[0]([j]), calls, failures };
  }

  it('drops a job whose data does not parse, without calling the handler or retrying', async () => {
    const w = await worker(async () => {});
    await expect(w.run(job({ nope: true }))).resolves.toBeUndefined();
    expect(w.calls).toEqual([]);
  });

  it('runs the handler in the job’s context', async () => {
    const w = await worker(async () => {});
    await w.run(job({ id: 'a', request_id: 'req-1' }));
    await w.run(job({ id: 'b' }));
    expect(w.calls).toEqual(['a req-1 corr-a', 'b job-job-1 corr-b']);
  });

  it('retries a failure with attempts left, storing no message; the final attempt or a permanent failure goes to onFinalFailure', async () => {
    const w = await worker(async (data) => {
      if (data.id === 'perm') throw new PermanentJobFailure('cannot');
      throw new Error('connection lost to patient P123');
    });
    await expect(w.run(job({ id: 'x' }, 0, 3))).rejects.toMatchObject({ name: 'JobFailure', message: 'Error' });
    expect(w.failures).toEqual([]);
    await expect(w.run(job({ id: 'x' }, 3, 3))).resolves.toBeUndefined();
    await expect(w.run(job({ id: 'perm' }, 0, 3))).resolves.toBeUndefined();
    expect(w.failures).toHaveLength(2);
  });
});
