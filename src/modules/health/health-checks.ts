import type { Queryable } from '../../db/pool.js';
import { waitingJobsByQueue } from '../../jobs/pgboss.repo.js';

export type CheckStatus = 'ok' | 'degraded' | 'down';

export interface DatabaseCheck {
  status: CheckStatus;
  latency_ms?: number;
  error?: string;
}

export interface QueueCheck {
  status: CheckStatus;
  depth?: number;
  oldest_waiting_seconds?: number | null;
  error?: string;
}

const CHECK_TIMEOUT_MS = 2_000;

function withTimeout<T>(promise: Promise<T>, ms = CHECK_TIMEOUT_MS): Promise<T> {
  let timer: NodeJS.Timeout;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error('timed out')), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

export async function checkDatabase(db: Queryable): Promise<DatabaseCheck> {
  const started = performance.now();
  try {
    await withTimeout(db.query('SELECT 1'));
    return { status: 'ok', latency_ms: Math.round((performance.now() - started) * 10) / 10 };
  } catch (err) {
    return { status: 'down', error: (err as Error).message === 'timed out' ? 'timed out' : 'unreachable' };
  }
}

/** Waiting jobs across pg-boss queues: how many, and how long the oldest has waited. */
export async function checkQueue(db: Queryable, degradedAfterSeconds = 300): Promise<QueueCheck> {
  try {
    const queues = await withTimeout(waitingJobsByQueue(db));
    const depth = queues.reduce((sum, q) => sum + q.depth, 0);
    const oldest = queues.length ? Math.round(Math.max(...queues.map((q) => q.oldestSeconds))) : null;
    const status = oldest !== null && oldest > degradedAfterSeconds ? 'degraded' : 'ok';
    return { status, depth, oldest_waiting_seconds: oldest };
  } catch {
    return { status: 'down', error: 'queue unavailable' };
  }
}
