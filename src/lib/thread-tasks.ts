import { parentPort } from 'node:worker_threads';

// Each task names its own argument type; the table of tasks holds them all.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type TaskHandler = (args: any) => unknown;

interface TaskMessage {
  id: number;
  op: string;
  args: unknown;
  setup?: unknown;
}

/**
 * The thread's side of thread-pool.ts: applies a call's `setup` (if it brings one), answers
 * `started` (with what the setup returned, if anything: state built here for other threads), runs the handler named by `op` and answers its value or its error (name and
 * message only: a message may not carry input text, handlers throw fixed messages).
 */
export function serveTasks(handlers: Record<string, TaskHandler>, setup?: (payload: unknown) => unknown | Promise<unknown>): void {
  const port = parentPort;
  if (!port) throw new Error('serveTasks() runs in a thread');
  port.on('message', async (msg: TaskMessage) => {
    try {
      const built = msg.setup !== undefined ? await setup?.(msg.setup) : undefined;
      port.postMessage(built === undefined ? { id: msg.id, started: true } : { id: msg.id, started: true, built });
      const handler = handlers[msg.op];
      if (!handler) throw new Error(`Unknown thread task ${msg.op}`);
      port.postMessage({ id: msg.id, ok: true, value: await handler(msg.args) });
    } catch (err) {
      const e = err as Error;
      port.postMessage({ id: msg.id, ok: false, error: { name: e?.name ?? 'Error', message: e?.message ?? String(err) } });
    }
  });
}
