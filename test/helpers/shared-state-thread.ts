import { threadId } from 'node:worker_threads';
import { serveTasks } from '../../src/lib/thread-tasks.js';

/**
 * Test code only: a thread whose setup either builds its state (a counter in shared memory, posted
 * back) or adopts the one posted, as the engine threads do with their tables. `count` adds one
 * to the counter and answers who built it and the count: two threads adding to one count share it.
 */
let cell: Int32Array | undefined;
let builder = 0;

serveTasks(
  {
    count: () => ({ builder, thread: threadId, count: Atomics.add(cell!, 0, 1) + 1 }),
  },
  (message) => {
    const m = message as { build: true } | { cell: Int32Array; builder: number };
    if ('cell' in m) {
      cell = m.cell;
      builder = m.builder;
      return undefined;
    }
    cell = new Int32Array(new SharedArrayBuffer(4));
    builder = threadId;
    return { cell, builder };
  },
);
