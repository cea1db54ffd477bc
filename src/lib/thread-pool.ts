import { Worker, type ResourceLimits, type WorkerOptions } from 'node:worker_threads';
import { afterThreadStart } from './young-generation.js';

/**
 * A small pool of threads that run CPU-bound work on user input (the local engine, PDF
 * text) off the HTTP event loop. Each call has a time budget: a call over it terminates its
 * thread (the only way to stop a thread stuck in a regular expression or a parser), which is
 * then replaced, and the call fails with ThreadTimeoutError. A thread that dies (out of memory,
 * crash) fails its call with ThreadCrashError and is replaced too.
 *
 * Calls wait per group (RunOptions.group): a free thread takes the next call of the waiting group
 * served longest ago, so one group's burst never holds another group's call behind it: that
 * call waits only for the calls already running (DESIGN "Fair share between groups").
 *
 * Protocol (see thread-tasks.ts): the pool posts `{id, op, args, setup?}`; the thread answers
 * `{id, started: true, built?}` when its setup is done and the budgeted work begins, then
 * `{id, ok: true, value}` or `{id, ok: false, error: {name, message}}`.
 *
 * Written here rather than taken from piscina because the engine needs what a generic pool does
 * not give: state kept per thread (its code table, sent only to a thread that lacks it) and a
 * budget that starts when that setup is done; piscina's abort would also charge a cold thread's
 * module loading to the first call.
 */

export class ThreadTimeoutError extends Error {
  override readonly name = 'ThreadTimeoutError';
  /** `setup`: the thread did not even start the work (spawn, module loading, setup). */
  constructor(
    message: string,
    readonly during: 'setup' | 'work',
  ) {
    super(message);
  }
}

export class ThreadCrashError extends Error {
  override readonly name = 'ThreadCrashError';
  constructor(
    message: string,
    readonly outOfMemory: boolean,
  ) {
    super(message);
  }
}

/** Every thread is busy and the queue is full: the caller should try again shortly. */
export class ThreadBusyError extends Error {
  override readonly name = 'ThreadBusyError';
}

/** An error thrown inside the thread, rebuilt by name and message (never its stack). */
export class ThreadTaskError extends Error {
  constructor(name: string, message: string) {
    super(message);
    this.name = name;
  }
}

export interface ThreadPoolOptions {
  /** The thread module: a `.js` file in the build, a `.ts` file when running from source. */
  entry: URL;
  size: number;
  /** Heap caps per thread, so an input that allocates without bound kills its thread, not the process. */
  resourceLimits?: ResourceLimits;
  /** Terminate a thread idle this long (it is spawned again on the next call); unset: keep it. */
  idleMs?: number;
  /** Bound on spawning and setup before the budget starts (module loading, a code table). */
  setupTimeoutMs?: number;
  /** Calls that may wait for a thread; one more is refused with ThreadBusyError. Unset: no bound. */
  maxQueue?: number;
  /** Calls of one group that may wait for a thread; one more of that group is refused with ThreadBusyError. Unset: no bound. */
  maxQueuePerGroup?: number;
}

export interface RunOptions {
  /** The budget of the work itself, from the thread's `started` answer. */
  timeoutMs: number;
  signal?: AbortSignal;
  /**
   * State the thread keeps between calls (a code table): `load()` is posted with the call only
   * to a thread that does not hold `key` yet.
   */
  setup?: {
    key: unknown;
    /** The state to post; a promise when it is being built elsewhere (the call waits for it, within the setup bound). */
    load: () => unknown;
    /** What the thread's setup answered with `started`: state it built, for the calls of other threads. */
    built?: (value: unknown) => void;
  };
  /** Whose call this is; calls of no group wait together as one group. */
  group?: string;
}

interface Task {
  id: number;
  group: string;
  op: string;
  args: unknown;
  options: RunOptions;
  resolve(value: unknown): void;
  reject(err: unknown): void;
  cleanup?: () => void;
}

interface Slot {
  thread?: Worker;
  task?: Task;
  setupKey?: unknown;
  timer?: NodeJS.Timeout;
  idleTimer?: NodeJS.Timeout;
}

type Answer =
  | { id: number; started: true; built?: unknown }
  | { id: number; ok: true; value: unknown }
  | { id: number; ok: false; error: { name: string; message: string } };

/**
 * A Node worker thread on `entry`; from source (tsx, vitest) it needs the TypeScript loader registered in its own thread.
 * Once it runs, the main thread's young-generation bound holds again (its start reset it: young-generation.ts).
 */
export function spawnThread(entry: URL, options: Omit<WorkerOptions, 'eval'> = {}): Worker {
  const boot = `import('tsx/esm/api').then((m) => { m.register(); return import(${JSON.stringify(entry.href)}); })`;
  const thread = entry.pathname.endsWith('.ts') ? new Worker(boot, { ...options, eval: true }) : new Worker(entry, options);
  thread.once('online', afterThreadStart);
  return thread;
}

/** Waiting calls by group; the next call is the oldest of the group served longest ago. */
class FairQueue {
  private readonly byGroup = new Map<string, Task[]>();
  /** When each group was last served (a serial number; absent: not yet, or forgotten). */
  private readonly lastServed = new Map<string, number>();
  private serial = 0;
  private size = 0;

  get length(): number {
    return this.size;
  }

  waiting(group: string): number {
    return this.byGroup.get(group)?.length ?? 0;
  }

  push(task: Task): void {
    const tasks = this.byGroup.get(task.group);
    if (tasks) tasks.push(task);
    else this.byGroup.set(task.group, [task]);
    this.size++;
  }

  shift(): Task | undefined {
    let next: string | undefined;
    // Map order breaks ties: the group that began waiting first.
    const served = (group: string) => this.lastServed.get(group) ?? 0;
    for (const group of this.byGroup.keys()) if (next === undefined || served(group) < served(next)) next = group;
    if (next === undefined) return undefined;
    this.lastServed.set(next, ++this.serial);
    // Bounded memory: groups with nothing waiting are forgotten now and then (then served as new).
    if (this.lastServed.size > 10_000)
      for (const group of this.lastServed.keys()) if (!this.byGroup.has(group)) this.lastServed.delete(group);
    return this.take(next, 0);
  }

  remove(task: Task): boolean {
    const index = this.byGroup.get(task.group)?.indexOf(task) ?? -1;
    if (index < 0) return false;
    this.take(task.group, index);
    return true;
  }

  drain(): Task[] {
    const all = [...this.byGroup.values()].flat();
    this.byGroup.clear();
    this.lastServed.clear();
    this.size = 0;
    return all;
  }

  private take(group: string, index: number): Task {
    const tasks = this.byGroup.get(group)!;
    const [task] = tasks.splice(index, 1);
    this.size--;
    if (tasks.length === 0) this.byGroup.delete(group);
    return task;
  }
}

export class ThreadPool {
  private readonly slots: Slot[];
  private readonly queue = new FairQueue();
  private nextId = 1;
  private closed = false;

  constructor(private readonly options: ThreadPoolOptions) {
    this.slots = Array.from({ length: Math.max(1, options.size) }, () => ({}));
  }

  run<T>(op: string, args: unknown, options: RunOptions): Promise<T> {
    if (this.closed) return Promise.reject(new ThreadCrashError('The thread pool is closed', false));
    if (options.signal?.aborted) return Promise.reject(options.signal.reason);
    const busy = this.slots.every((s) => s.task);
    const group = options.group ?? '';
    if (busy && this.options.maxQueue !== undefined && this.queue.length >= this.options.maxQueue) {
      return Promise.reject(new ThreadBusyError(`All threads are busy and ${this.queue.length} calls are waiting`));
    }
    const perGroup = this.options.maxQueuePerGroup;
    if (busy && perGroup !== undefined && this.queue.waiting(group) >= perGroup) {
      return Promise.reject(new ThreadBusyError(`All threads are busy and ${perGroup} calls of this group are waiting`));
    }
    return new Promise<T>((resolve, reject) => {
      const task: Task = { id: this.nextId++, group, op, args, options, resolve: resolve as (v: unknown) => void, reject };
      if (options.signal) {
        const onAbort = () => this.abort(task);
        options.signal.addEventListener('abort', onAbort, { once: true });
        task.cleanup = () => options.signal!.removeEventListener('abort', onAbort);
      }
      this.queue.push(task);
      this.dispatch();
    });
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const task of this.queue.drain()) this.settle(task, new ThreadCrashError('The thread pool is closed', false));
    await Promise.all(
      this.slots.map(async (slot) => {
        if (slot.task) this.settle(slot.task, new ThreadCrashError('The thread pool is closed', false));
        await this.retire(slot);
      }),
    );
  }

  private dispatch(): void {
    for (const slot of this.slots) {
      if (this.queue.length === 0) return;
      if (slot.task) continue;
      this.start(slot, this.queue.shift()!);
    }
  }

  private start(slot: Slot, task: Task): void {
    clearTimeout(slot.idleTimer);
    const thread = (slot.thread ??= this.hire(slot));
    slot.task = task;
    const setup = task.options.setup;
    const needsSetup = setup !== undefined && slot.setupKey !== setup.key;
    if (needsSetup) slot.setupKey = undefined;
    // Spawning and setup are bounded apart from the budget: a cold thread loads its modules first.
    slot.timer = setTimeout(
      () => this.fail(slot, new ThreadTimeoutError(`The thread did not start within ${this.setupTimeoutMs} ms`, 'setup')),
      this.setupTimeoutMs,
    );
    const post = (state: unknown) => thread.postMessage({ id: task.id, op: task.op, args: task.args, setup: state });
    const state = needsSetup ? setup.load() : undefined;
    if (needsSetup) slot.setupKey = setup.key;
    if (!(state instanceof Promise)) return post(state);
    void state.then(
      (s) => slot.task === task && slot.thread === thread && post(s),
      (err: unknown) => slot.task === task && this.fail(slot, err instanceof Error ? err : new Error(String(err))),
    );
  }

  private get setupTimeoutMs(): number {
    return this.options.setupTimeoutMs ?? 60_000;
  }

  private hire(slot: Slot): Worker {
    const thread = spawnThread(this.options.entry, { resourceLimits: this.options.resourceLimits });
    // An idle thread never keeps the process alive (a call in progress does, by its timer).
    thread.unref();
    thread.on('message', (answer: Answer) => this.onAnswer(slot, thread, answer));
    thread.on('error', (err: Error & { code?: string }) => {
      if (slot.thread !== thread) return;
      const oom = err.code === 'ERR_WORKER_OUT_OF_MEMORY';
      this.fail(slot, new ThreadCrashError(oom ? 'The thread ran out of memory' : `The thread failed (${err.name})`, oom));
    });
    thread.on('exit', () => {
      if (slot.thread !== thread) return;
      this.fail(slot, new ThreadCrashError('The thread exited', false));
    });
    return thread;
  }

  private onAnswer(slot: Slot, thread: Worker, answer: Answer): void {
    const task = slot.task;
    if (slot.thread !== thread || !task || answer.id !== task.id) return;
    clearTimeout(slot.timer);
    if ('started' in answer) {
      if (answer.built !== undefined) task.options.setup?.built?.(answer.built);
      const ms = task.options.timeoutMs;
      slot.timer = setTimeout(() => this.fail(slot, new ThreadTimeoutError(`The work did not finish within ${ms} ms`, 'work')), ms);
      return;
    }
    slot.task = undefined;
    this.settle(
      task,
      answer.ok ? undefined : new ThreadTaskError(answer.error.name, answer.error.message),
      answer.ok ? answer.value : undefined,
    );
    this.idle(slot);
    this.dispatch();
  }

  /** The slot's call fails with `err`; its thread is terminated and the slot is free for the next call. */
  private fail(slot: Slot, err: Error): void {
    clearTimeout(slot.timer);
    const task = slot.task;
    slot.task = undefined;
    void this.retire(slot);
    if (task) this.settle(task, err);
    this.dispatch();
  }

  private abort(task: Task): void {
    if (this.queue.remove(task)) {
      this.settle(task, task.options.signal?.reason);
      return;
    }
    const slot = this.slots.find((s) => s.task === task);
    // A cancelled call must not keep its thread busy: it is replaced.
    if (slot) this.fail(slot, task.options.signal?.reason ?? new Error('Aborted'));
  }

  private idle(slot: Slot): void {
    if (this.options.idleMs === undefined) return;
    slot.idleTimer = setTimeout(() => void this.retire(slot), this.options.idleMs);
    slot.idleTimer.unref();
  }

  private async retire(slot: Slot): Promise<void> {
    clearTimeout(slot.timer);
    clearTimeout(slot.idleTimer);
    const thread = slot.thread;
    slot.thread = undefined;
    slot.setupKey = undefined;
    await thread?.terminate().catch(() => {});
  }

  private settle(task: Task, err: unknown, value?: unknown): void {
    task.cleanup?.();
    if (err !== undefined) task.reject(err);
    else task.resolve(value);
  }
}
