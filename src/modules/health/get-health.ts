import type { Request, Response } from 'express';
import type { Queryable } from '../../db/pool.js';
import { VERSION } from '../../lib/version.js';
import { checkDatabase, checkQueue, type CheckStatus } from './health-checks.js';

const startedAt = Date.now();

/** Open health check: ok, degraded or down; 503 when the database is unreachable. No secrets, no PHI. */
export function getHealth(db: Queryable, engineName: () => string) {
  return async (_req: Request, res: Response) => {
    const database = await checkDatabase(db);
    const queue = database.status === 'ok' ? await checkQueue(db) : { status: 'down' as const, error: 'database unreachable' };
    const engine = { status: 'ok' as CheckStatus, name: engineName() };
    const status: CheckStatus = database.status === 'down' ? 'down' : queue.status !== 'ok' || engine.status !== 'ok' ? 'degraded' : 'ok';
    res
      .status(status === 'down' ? 503 : 200)
      .set('cache-control', 'no-store')
      .json({
        status,
        checks: { database, queue, engine },
        version: VERSION,
        uptime_seconds: Math.round((Date.now() - startedAt) / 1000),
      });
  };
}
