import { serveTasks } from '../../src/lib/thread-tasks.js';
import { tablesOf, type TablesMessage } from '../../src/engine/isolated/code-table-payload.js';
import { LocalEngine } from '../../src/engine/local/local-engine.js';
import type { CodeTable } from '../../src/terminology/code-table.js';

/**
 * Test code only: the real engine thread's local engine, with each call first holding its thread
 * for PACED_ENGINE_MS (Atomics.wait blocks the thread as long work would, without taking a core
 * of this shared machine). Gives engine calls a known length, so queueing shows in latencies.
 */
const holdMs = Number(process.env.PACED_ENGINE_MS ?? 300);
const cell = new Int32Array(new SharedArrayBuffer(4));
const hold = () => Atomics.wait(cell, 0, 0, holdMs);

let table: CodeTable | undefined;
const engine = new LocalEngine(() => table!);

serveTasks(
  {
    chat: (a) => (hold(), engine.chat(a.messages, { visit: a.visit })),
    extractNote: (a) => (hold(), engine.extractNote(a.transcript, a.template)),
    codify: (a) => (hold(), engine.codify(a.input)),
  },
  async (message) => {
    const tables = await tablesOf(message as TablesMessage);
    table = tables.table;
    return tables.built;
  },
);
