import { serveTasks } from '../../lib/thread-tasks.js';
import type { CodeTable } from '../../terminology/code-table.js';
import { LocalEngine } from '../local/local-engine.js';
import { tableOf, type TablePayload } from './code-table-payload.js';

/**
 * An engine thread: the local engine over its own copy of the code table, posted by the
 * main thread with the first codify call after the table changed (isolated-engine.ts), or read
 * from the shipped release's file when that is the table in force.
 */
let table: CodeTable | undefined;
const engine = new LocalEngine(() => {
  if (!table) throw new Error('No code table was posted to this engine thread');
  return table;
});

serveTasks(
  {
    chat: (a) => engine.chat(a.messages, { visit: a.visit }),
    extractNote: (a) => engine.extractNote(a.transcript, a.template),
    codify: (a) => engine.codify(a.input),
  },
  (payload) => {
    table = tableOf(payload as TablePayload);
    // The title index is built here, in setup, not inside the first call's budget.
    void table.index;
  },
);
