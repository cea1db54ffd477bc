import type { Queryable } from '../../../db/pool.js';
import { recordEvent } from '../../../outbound-events/outbox.repo.js';
import type { EndpointHealthChange } from './endpoint-health.repo.js';

/**
 * One operational event per change of an endpoint's health (never one per retry):
 * `endpoint.recovered` when it is ok again, else `endpoint.failing` (health `failing`, or
 * `disabled` after a 410). Recorded with no group, so only operator-wide endpoints receive it;
 * its data names the endpoint's group.
 */
export async function announceHealth(tx: Queryable, change: EndpointHealthChange): Promise<void> {
  await recordEvent(tx, {
    type: change.health === 'ok' ? 'endpoint.recovered' : 'endpoint.failing',
    groupId: null,
    data: { ...change },
  });
}
