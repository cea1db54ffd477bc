import { describe, expect, it } from 'vitest';
import { EngineLimitError } from '../../src/engine/engine-errors.js';
import { IsolatedEngine } from '../../src/engine/isolated/isolated-engine.js';
import { LocalEngine } from '../../src/engine/local/local-engine.js';
import { CodeTable } from '../../src/terminology/code-table.js';
import { starterRows } from '../../src/terminology/starter-catalog.js';

const BACKTRACKING = new URL('../helpers/backtracking-engine-thread.ts', import.meta.url);
/** The input of issue 16 that froze the gateway for 7 s through the old speaker-tag pattern. */
const FREEZER = '[' + ' '.repeat(2_500) + '!x';

/** The longest gap between ticks of a 10 ms interval while `work` runs: how long the event loop was blocked. */
async function eventLoopStall<T>(work: () => Promise<T>): Promise<{ stallMs: number; result: PromiseSettledResult<T> }> {
  let last = performance.now();
  let stallMs = 0;
  const timer = setInterval(() => {
    const now = performance.now();
    stallMs = Math.max(stallMs, now - last);
    last = now;
  }, 10);
  const [result] = await Promise.allSettled([work()]);
  clearInterval(timer);
  return { stallMs, result };
}

describe('the local engine in threads', () => {
  const starter = new CodeTable(starterRows());

  it('answers exactly as the in-process engine does', async () => {
    const local = new LocalEngine(() => starter);
    const isolated = new IsolatedEngine({ codeTable: () => starter });
    try {
      const transcript =
        '[doctor] what brings you in today?\n[patient] i have had a cough and fever for three days.\n[doctor] any chest pain?\n[patient] no.';
      expect(await isolated.extractNote(transcript, 'SOAP')).toEqual(await local.extractNote(transcript, 'SOAP'));
      const messages = [{ role: 'user' as const, content: 'Patient with cough and fever. What should I ask?' }];
      expect(await isolated.chat(messages)).toEqual(await local.chat(messages));
      const input = {
        text: 'Essential hypertension. Type 2 diabetes mellitus without complications. Denies chest pain.',
        model: 'balanced' as const,
      };
      expect(await isolated.codify(input)).toEqual(await local.codify(input));
    } finally {
      await isolated.close();
    }
  }, 60_000);

  it('two threads coding at once answer as the in-process engine does: one builds the tables, the other adopts them', async () => {
    const local = new LocalEngine(() => starter);
    const isolated = new IsolatedEngine({ codeTable: () => starter, size: 2 });
    try {
      const inputs = ['Essential hypertension.', 'Type 2 diabetes mellitus without complications. Right knee effusion.'].map((text) => ({
        text,
        model: 'balanced' as const,
      }));
      const answers = await Promise.all(inputs.map((input) => isolated.codify(input)));
      for (const [i, input] of inputs.entries()) expect(answers[i]).toEqual(await local.codify(input));
    } finally {
      await isolated.close();
    }
  }, 60_000);

  it('codes against the table in force, sent again to the thread when it changes', async () => {
    let table = starter;
    const isolated = new IsolatedEngine({ codeTable: () => table, size: 1 });
    try {
      const input = { text: 'Essential hypertension.', model: 'balanced' as const };
      const codes = async () => (await isolated.codify(input)).final_code_assessments.map((a) => a.code);
      expect(await codes()).toContain('I10');
      table = new CodeTable(starterRows().filter((r) => r.code.replace('.', '') !== 'I10'));
      expect(await codes()).not.toContain('I10');
      table = starter;
      expect(await codes()).toContain('I10');
    } finally {
      await isolated.close();
    }
  });

  it('stops a call over its budget without blocking the event loop, fails it with EngineLimitError, and serves the next call', async () => {
    const isolated = new IsolatedEngine({ codeTable: () => starter, entry: BACKTRACKING, budgetMs: 1_000, size: 1 });
    try {
      // Cold start (module loading) is outside the budget.
      expect((await isolated.chat([{ role: 'user', content: '[doctor] hello' }])).message.content).toBe('tagged');
      const started = performance.now();
      const { stallMs, result } = await eventLoopStall(() => isolated.chat([{ role: 'user', content: FREEZER }]));
      const elapsed = performance.now() - started;
      expect(result.status).toBe('rejected');
      expect((result as PromiseRejectedResult).reason).toBeInstanceOf(EngineLimitError);
      expect((result as PromiseRejectedResult).reason.message).toMatch(/did not finish within 1 s/);
      // Bounds for a loaded 2-core machine: the budget plus the thread's termination.
      expect(elapsed).toBeLessThan(6_000);
      expect(stallMs).toBeLessThan(1_000);
      // The thread was replaced: the next call is answered.
      expect((await isolated.chat([{ role: 'user', content: 'plain words' }])).message.content).toBe('plain');
    } finally {
      await isolated.close();
    }
  }, 60_000);

  it('stops the work of a cancelled call at once (the signal aborts the thread), queued calls included', async () => {
    const isolated = new IsolatedEngine({ codeTable: () => starter, entry: BACKTRACKING, budgetMs: 60_000, size: 1 });
    try {
      await isolated.chat([{ role: 'user', content: 'warm' }]);
      const running = new AbortController();
      const queued = new AbortController();
      const first = isolated.chat([{ role: 'user', content: FREEZER }], { signal: running.signal });
      const second = isolated.chat([{ role: 'user', content: 'behind it' }], { signal: queued.signal });
      queued.abort(new Error('queued call cancelled'));
      await expect(second).rejects.toThrow('queued call cancelled');
      setTimeout(() => running.abort(new Error('run cancelled')), 200);
      const started = performance.now();
      await expect(first).rejects.toThrow('run cancelled');
      expect(performance.now() - started).toBeLessThan(5_000);
      expect((await isolated.chat([{ role: 'user', content: 'after' }])).message.content).toBe('plain');
    } finally {
      await isolated.close();
    }
  }, 60_000);

  it('fails a call that exhausts its thread heap with EngineLimitError, and serves the next call', async () => {
    const isolated = new IsolatedEngine({ codeTable: () => starter, entry: BACKTRACKING, maxHeapMb: 64, size: 1 });
    try {
      const err = await isolated.chat([{ role: 'user', content: 'allocate' }]).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(EngineLimitError);
      expect((err as Error).message).toMatch(/ran out of memory/);
      expect((await isolated.chat([{ role: 'user', content: 'plain words' }])).message.content).toBe('plain');
    } finally {
      await isolated.close();
    }
  }, 60_000);

  it('refuses calls after close()', async () => {
    const isolated = new IsolatedEngine({ codeTable: () => starter });
    await isolated.close();
    await expect(isolated.chat([{ role: 'user', content: 'x' }])).rejects.toThrow(/unavailable/);
  });
});
