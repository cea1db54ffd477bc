import type { Request, Response } from 'express';
import type { Queryable } from '../../db/pool.js';
import { statusCounts } from '../../db/status-counts.repo.js';
import { VERSION } from '../../lib/version.js';
import { checkDatabase, checkQueue, type CheckStatus } from '../health/health-checks.js';
import { queueStats } from '../../jobs/pgboss.repo.js';

/** GET /api/v1/console/overview: the health checks, every queue's depth and oldest waiting job, rows by state. */
export function getOverview(db: Queryable, engineName: () => string) {
  return async (_req: Request, res: Response) => {
    const database = await checkDatabase(db);
    const up = database.status === 'ok';
    const queue = up ? await checkQueue(db) : { status: 'down' as const, error: 'database unreachable' };
    const status: CheckStatus = !up ? 'down' : queue.status !== 'ok' ? 'degraded' : 'ok';
    const [queues, states] = up ? await Promise.all([queueStats(db), statusCounts(db)]) : [[], []];
    res.set('cache-control', 'no-store').json({
      status,
      checks: { database, queue, engine: { status: 'ok', name: engineName() } },
      version: VERSION,
      queues,
      states,
      generated_at: new Date().toISOString(),
    });
  };
}
