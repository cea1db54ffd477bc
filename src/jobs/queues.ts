import type { Queue } from 'pg-boss';

export interface QueueDefinition {
  name: string;
  options: Omit<Queue, 'name'>;
}

/**
 * Every queue with its policy: retries, backoff, expiry and heartbeat. A heartbeat lets a job
 * whose worker died be retried within seconds instead of after its expiry.
 */
export const QUEUES: QueueDefinition[] = [];

export function queue(name: string): QueueDefinition {
  const found = QUEUES.find((q) => q.name === name);
  if (!found) throw new Error(`Unknown queue ${name}`);
  return found;
}
