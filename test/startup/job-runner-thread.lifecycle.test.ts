import { describe, expect, it } from 'vitest';
import type { Config } from '../../src/config.js';
import { createLogger } from '../../src/lib/logger.js';
import { startJobRunnerThread } from '../../src/job-runner-thread.js';

const ENTRY = new URL('../helpers/job-runner-thread/fake-entry.ts', import.meta.url);
const logger = createLogger('error', { silent: true });

function start(behaviour: string) {
  const jobs: unknown[][] = [];
  const lost: string[] = [];
  const thread = startJobRunnerThread(
    { behaviour } as unknown as Config,
    'postgres://unused',
    { recordJob: (...args) => void jobs.push(args) },
    logger,
    (reason) => lost.push(reason),
    ENTRY,
  );
  return { thread, jobs, lost };
}

/** The main thread's side of ROLE=all's job runner thread (src/job-runner-thread.ts), against a stand-in thread. */
describe('startJobRunnerThread', () => {
  it('resolves once the thread is ready, records its jobs in the parent, and stops it on request', async () => {
    const { thread, jobs, lost } = start('normal');
    const running = await thread;
    expect(jobs).toEqual([['inbound-event', 'completed', 0.25]]);
    await running.stop();
    await running.stop(); // twice (a second signal) is harmless
    expect(lost).toEqual([]);
  });

  it('rejects when the thread fails before it is ready, naming the reason', async () => {
    await expect(start('crash-at-start').thread).rejects.toThrow(/the database is not reachable/);
  });

  it('reports a thread that ends by itself after start-up, so the service stops rather than accept events nothing processes', async () => {
    const { thread, lost } = start('crash-after-ready');
    await thread;
    await expect.poll(() => lost, { timeout: 10_000 }).toEqual(['exit code 3']);
  });
});
