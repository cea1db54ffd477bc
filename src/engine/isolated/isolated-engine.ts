import { ThreadBusyError, ThreadCrashError, ThreadPool, ThreadTimeoutError, type RunOptions } from '../../lib/thread-pool.js';
import type { Logger } from '../../lib/logger.js';
import type { TableInForce } from '../../terminology/shipped-release.js';
import type {
  ChatMessage,
  ChatOptions,
  ChatResult,
  ClinicalEngine,
  CodifyInput,
  CodifyResult,
  EngineCallOptions,
  ExtractionResult,
} from '../engine.js';
import { EngineLimitError, EngineUnavailableError } from '../engine-errors.js';
import type { Template } from '../templates.js';
import { adoptShippedCodeTable } from '../../terminology/shipped-release.js';
import type { CodeTablePayload, TablesMessage } from './code-table-payload.js';
import { capLineLengths } from './line-cap.js';

/** A local engine call's budget: ~100x the extraction of a long visit on a loaded 2-core machine. */
export const ENGINE_BUDGET_MS = 30_000;

export interface IsolatedEngineOptions {
  /** The table in force (reloaded after an import); each thread is sent its rows when it changes, or reads the shipped release itself. */
  codeTable: () => TableInForce;
  /**
   * Threads; default 1. Each holds its own coder state (~40 MB of RSS once it has coded), so a
   * second is the operator's choice (`ENGINE_THREADS`) where cores and memory allow: with two, the
   * service's peak RSS after the benchmark is above 300 MB (README, Benchmarks).
   */
  size?: number;
  budgetMs?: number;
  /** Another thread module speaking the same protocol (tests). */
  entry?: URL;
  /** Old-generation heap cap per thread, in MB. */
  maxHeapMb?: number;
  /** For PHI-free notices when a call is stopped. */
  logger?: Logger;
  /** ENGINE_QUEUE_PER_GROUP: calls of one group that may wait; one more is refused (EngineUnavailableError). */
  maxQueuePerGroup?: number;
}

/**
 * The local engine, run in threads so that no input can block the HTTP event loop: each
 * call gets `budgetMs` of work; a call over it (or one that exhausts its thread's heap) stops its
 * thread, which is replaced, and fails with EngineLimitError (a run ends `failed`, codify answers
 * 422). Lines reach the engine at most MAX_LINE_CHARS long. Waiting calls are served by group in
 * turn (lib/thread-pool.ts), so another group's burst delays a call by the running calls only.
 */
export class IsolatedEngine implements ClinicalEngine {
  readonly name = 'local';
  private readonly pool: ThreadPool;
  private readonly budgetMs: number;
  private readonly versions = new WeakMap<object, number>();
  private lastVersion = 0;
  /**
   * The tables of the last version coded: built by the first thread set up for it, which posts
   * their parts back; the threads set up meanwhile wait for them, and every thread shares them.
   */
  private tables?: { version: number; payload?: CodeTablePayload; building?: Promise<TablesMessage>; done?: (m: TablesMessage) => void };

  constructor(private readonly options: IsolatedEngineOptions) {
    this.budgetMs = options.budgetMs ?? ENGINE_BUDGET_MS;
    this.pool = new ThreadPool({
      entry: options.entry ?? new URL(`./engine-thread${import.meta.url.endsWith('.ts') ? '.ts' : '.js'}`, import.meta.url),
      size: options.size ?? 1,
      // A small young generation: building the table's index in a thread peaked 25 MB higher with
      // V8's default (48 MB), at no measurable cost in speed.
      resourceLimits: { maxOldGenerationSizeMb: options.maxHeapMb ?? 512, maxYoungGenerationSizeMb: 8 },
      maxQueuePerGroup: options.maxQueuePerGroup,
    });
  }

  chat(messages: ChatMessage[], options?: ChatOptions): Promise<ChatResult> {
    const capped = messages.map((m) => ({ role: m.role, content: capLineLengths(m.content) }));
    const visit = options?.visit && { ...options.visit, transcript: capLineLengths(options.visit.transcript) };
    return this.call('chat', { messages: capped, visit }, options);
  }

  extractNote(transcript: string, template: Template, options?: EngineCallOptions): Promise<ExtractionResult> {
    return this.call('extractNote', { transcript: capLineLengths(transcript), template }, options);
  }

  async codify(input: CodifyInput, options?: EngineCallOptions): Promise<CodifyResult> {
    const table = this.options.codeTable();
    let version = table === 'shipped' ? 0 : this.versions.get(table);
    if (version === undefined) this.versions.set(table as object, (version = ++this.lastVersion));
    let builder = false;
    const message = (): TablesMessage | Promise<TablesMessage> => {
      let t = this.tables;
      if (t?.version !== version) t = this.tables = { version };
      if (t.payload) return t.payload;
      if (t.building) return t.building;
      builder = true;
      t.building = new Promise((resolve) => (t.done = resolve));
      return { build: table === 'shipped' ? 'shipped' : table.columns() };
    };
    const built = (payload: unknown) => {
      const t = this.tables;
      if (t?.version !== version) return;
      t.payload = payload as CodeTablePayload;
      t.done?.(t.payload);
      if (table === 'shipped') adoptShippedCodeTable(t.payload.table);
    };
    try {
      return await this.call<CodifyResult>('codify', { input: { ...input, text: capLineLengths(input.text) } }, options, {
        key: version,
        load: message,
        built,
      });
    } catch (err) {
      // Its builder failed before they were built: the threads waiting for the tables build them each.
      const t = this.tables;
      if (builder && t?.version === version && !t.payload) {
        t.done?.({ build: table === 'shipped' ? 'shipped' : table.columns() });
        this.tables = undefined;
      }
      throw err;
    }
  }

  /** Terminates the threads (runtime shutdown). */
  close(): Promise<void> {
    return this.pool.close();
  }

  private async call<T>(op: string, args: unknown, options?: EngineCallOptions, setup?: RunOptions['setup']): Promise<T> {
    try {
      return await this.pool.run<T>(op, args, { timeoutMs: this.budgetMs, signal: options?.signal, setup, group: options?.group });
    } catch (err) {
      if (err instanceof ThreadBusyError) throw new EngineUnavailableError(`The clinical engine is busy: ${err.message}`);
      if (err instanceof ThreadTimeoutError || err instanceof ThreadCrashError) {
        // Operation and reason only: never the input.
        this.options.logger?.warn('engine thread replaced', { operation: op, reason: err.message, budget_ms: this.budgetMs });
      }
      if (err instanceof ThreadTimeoutError && err.during === 'work') {
        throw new EngineLimitError(`The clinical engine did not finish within ${Math.round(this.budgetMs / 1000)} s; the work was stopped`);
      }
      if (err instanceof ThreadCrashError || err instanceof ThreadTimeoutError) {
        if (err instanceof ThreadCrashError && err.outOfMemory)
          throw new EngineLimitError('The clinical engine ran out of memory on this input; the work was stopped');
        throw new EngineUnavailableError(`The clinical engine is unavailable (${err.message})`);
      }
      throw err;
    }
  }
}
