import { describe, expect, it } from 'vitest';
import { ThreadBusyError, ThreadPool, ThreadTimeoutError } from '../../src/lib/thread-pool.js';
import { PdfReader } from '../../src/modules/codify/pdf-reader.js';
import { buildPagesPdf, textContent } from '../helpers/pdf.js';

const BACKTRACKING = new URL('../helpers/backtracking-engine-thread.ts', import.meta.url);
const SHARED_STATE = new URL('../helpers/shared-state-thread.ts', import.meta.url);
const FREEZER = '[' + ' '.repeat(2_500) + '!x';
const chat = (content: string) => ({ messages: [{ role: 'user', content }] });

describe('thread pool', () => {
  it('refuses a call at once when every thread is busy and the queue is full', async () => {
    const pool = new ThreadPool({ entry: BACKTRACKING, size: 1, maxQueue: 1 });
    try {
      const running = pool.run('chat', chat(FREEZER), { timeoutMs: 1_000 });
      const queued = pool.run<{ message: { content: string } }>('chat', chat('plain'), { timeoutMs: 5_000 });
      await expect(pool.run('chat', chat('one too many'), { timeoutMs: 1_000 })).rejects.toBeInstanceOf(ThreadBusyError);
      await expect(running).rejects.toBeInstanceOf(ThreadTimeoutError);
      // The queued call runs on the replacement thread.
      expect((await queued).message.content).toBe('plain');
    } finally {
      await pool.close();
    }
  }, 60_000);

  it("serves waiting groups in turn: another group's call runs next after the running one, and a group's queue has its own cap", async () => {
    const pool = new ThreadPool({ entry: BACKTRACKING, size: 1, maxQueuePerGroup: 3 });
    const order: string[] = [];
    const call = (group: string, label: string) =>
      pool.run('chat', chat('plain'), { timeoutMs: 10_000, group }).then(() => void order.push(label));
    try {
      const flood = [call('a', 'a1'), call('a', 'a2'), call('a', 'a3'), call('a', 'a4')];
      // a1 runs, a2..a4 wait: a fifth call of group a is refused, group b's is not.
      await expect(pool.run('chat', chat('plain'), { timeoutMs: 1_000, group: 'a' })).rejects.toBeInstanceOf(ThreadBusyError);
      const b = call('b', 'b1');
      await Promise.all([...flood, b]);
      expect(order).toEqual(['a1', 'b1', 'a2', 'a3', 'a4']);
    } finally {
      await pool.close();
    }
  }, 60_000);

  it('state one thread built in its setup is posted back, and a thread set up meanwhile waits for it and shares it', async () => {
    const pool = new ThreadPool({ entry: SHARED_STATE, size: 2 });
    let state: unknown;
    let done: (s: unknown) => void = () => {};
    const waiting = new Promise((resolve) => (done = resolve));
    let builds = 0;
    // As the isolated engine does: the first setup builds, later ones wait for what it posts back.
    const setup = {
      key: 1,
      load: () => state ?? (builds++ === 0 ? { build: true } : waiting),
      built: (s: unknown) => done((state = s)),
    };
    type Counted = { builder: number; thread: number; count: number };
    try {
      const [a, b] = await Promise.all([
        pool.run<Counted>('count', {}, { timeoutMs: 10_000, setup }),
        pool.run<Counted>('count', {}, { timeoutMs: 10_000, setup }),
      ]);
      expect(a.thread).not.toBe(b.thread);
      expect(builds).toBe(2);
      // One thread built the counter; both counted on it.
      expect(a.builder).toBe(b.builder);
      expect([a.count, b.count].sort()).toEqual([1, 2]);
      expect(state).toMatchObject({ builder: a.builder });
    } finally {
      await pool.close();
    }
  }, 60_000);

  it('the PDF reader answers 503 with Retry-After when PDFs pile up', async () => {
    const reader = new PdfReader({ maxQueue: 1 });
    try {
      const pdf = buildPagesPdf(300, textContent(Array.from({ length: 30 }, () => 'Hypertension.')));
      const reads = [reader.read(pdf), reader.read(pdf), reader.read(pdf)].map((p) => p.catch((e: unknown) => e));
      const third = await reads[2];
      expect(third).toMatchObject({ status: 503, details: 'The PDF reader is busy; retry shortly', headers: { 'retry-after': '5' } });
      expect(await reads[0]).toMatchObject({ pages: 300 });
      expect(await reads[1]).toMatchObject({ pages: 300 });
    } finally {
      await reader.close();
    }
  }, 60_000);
});
