import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * What travels with a job (or an inbound event's processing) into every log line it writes: ids
 * only, never PHI. HTTP requests carry their ids on `req` instead (http/request-ids.ts).
 */
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
