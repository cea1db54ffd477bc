import type { Request, Response } from 'express';
import { isUuid } from '../../../http/validate.js';
import { conflict, notFound } from '../../../lib/errors.js';
import type { EndpointOwner } from '../endpoints/endpoint-owner.js';
import { reopenForReplay, type ReplayDeps } from './reopen-for-replay.js';

/**
 * POST .../webhook-deliveries/{id}/replay: 202; the delivery is sent again now, with the same
 * `webhook-id` and a fresh retry schedule, whatever its state. A disabled or deleted endpoint, or
 * a payload redacted after RETENTION_DAYS: 409. On /v1, another group's delivery is 404.
 */
export function replayDeliveryHandler(deps: ReplayDeps, owner: EndpointOwner) {
  return async (req: Request<{ id: string }>, res: Response) => {
    const { id } = req.params;
    const found = isUuid(id) ? await reopenForReplay(deps, id, owner(req)) : undefined;
    if (!found) throw notFound('Webhook delivery', id);
    if (found.redacted)
      throw conflict(`Webhook delivery ${found.id}: its payload was redacted after the retention period; it cannot be replayed`);
    if (found.endpoint_status !== 'active')
      throw conflict(`Webhook endpoint ${found.endpoint_id} is ${found.endpoint_status}; its deliveries cannot be replayed`);
    res.status(202).json({ id: found.id, webhook_id: found.id, endpoint_id: found.endpoint_id, status: 'pending' });
  };
}
