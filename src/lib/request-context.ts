import { AsyncLocalStorage } from 'node:async_hooks';

/** What travels with a request or a job into every log line: ids only, never PHI. */
export interface RequestContext {
  requestId: string;
  userId?: string;
  groupId?: string;
  doctor?: string;
  correlationId?: string;
}

const storage = new AsyncLocalStorage<RequestContext>();

export function runWithContext<T>(context: RequestContext, fn: () => T): T {
  return storage.run(context, fn);
}

export function currentContext(): RequestContext | undefined {
  return storage.getStore();
}
