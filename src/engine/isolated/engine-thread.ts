import { serveTasks } from '../../lib/thread-tasks.js';
import type { CodeTable } from '../../terminology/code-table.js';
import { LocalEngine } from '../local/local-engine.js';
import { tablesOf, type TablesMessage } from './code-table-payload.js';

/**
 * An engine thread: the local engine over the code table, its title index and the Index and
 * Tabular, set up with the first codify call after the table changed (isolated-engine.ts): built
 * here by the first thread, which posts their parts back, and adopted by every other thread (their
 * arrays are shared memory, one copy for all).
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
  async (message) => {
    // Built here when no other thread has built them yet (the first thread of a table): the parts go back to be shared.
    const tables = await tablesOf(message as TablesMessage);
    table = tables.table;
    return tables.built;
  },
);
