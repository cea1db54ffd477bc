import type { Request, Response } from 'express';
import type { PgBoss } from 'pg-boss';
import type { Pool } from '../../db/pool.js';
import { withTransaction } from '../../db/transaction.js';
import { isUuid } from '../../http/validate.js';
import { conflict, notFound } from '../../lib/errors.js';
import { sendDeliveryJobs } from '../../jobs/webhook-queue.js';
import { findEndpoint } from '../webhook-endpoints/webhook-endpoints.repo.js';
import { reopenDeadDeliveries } from './console.repo.js';
import { auditConsole } from './operator-audit.js';

/** At most this many per request; the console says how many and the operator may press again. */
const MAX_REPLAY = 1000;

/**
 * POST /api/v1/console/endpoints/{id}/replay-dead: 202; every dead delivery of the endpoint is
 * sent again now, each with its own `webhook-id` and a fresh retry schedule (as a single replay).
 * A disabled endpoint: 409 (enable it first).
 */
export function replayEndpointDead(pool: Pool, boss: PgBoss) {
  return async (req: Request<{ id: string }>, res: Response) => {
    const { id } = req.params;
    const endpoint = isUuid(id) ? await findEndpoint(pool, id) : undefined;
    if (!endpoint) {
      await auditConsole(pool, req, res, 'replay-dead endpoint', id, 404);
      throw notFound('Webhook endpoint', id);
    }
    if (endpoint.status !== 'active') {
      await auditConsole(pool, req, res, 'replay-dead endpoint', id, 409);
      throw conflict(`Webhook endpoint ${id} is ${endpoint.status}; enable it before replaying its deliveries`);
    }
    const reopened = await withTransaction(pool, async (tx) => {
      const rows = await reopenDeadDeliveries(tx, id, MAX_REPLAY);
      await sendDeliveryJobs(boss, tx, rows.map((d) => ({ delivery_id: d.id, attempt: d.attempt_count + 1 })));
      return rows;
    });
    await auditConsole(pool, req, res, 'replay-dead endpoint', id, 202);
    res.status(202).json({ endpoint_id: id, replayed: reopened.length, delivery_ids: reopened.map((d) => d.id) });
  };
}
