import type { Queryable } from '../../db/pool.js';
import type { InboundSender } from '../../http/inbound-sender.js';
import { forbidden } from '../../lib/errors.js';
import type { InboundEventType } from './inbound-event-type.js';

/**
 * An integration writes only the groups it is bound to: the event's group (its type's boundGroup,
 * else groupId: `data.group_id`; for a call event, the group of the call it updates) must be one
 * of them, else 403 and nothing is stored. An event without a group (the shared centers catalog,
 * a call of no group) is the deployment-wide senders' to send.
 */
export async function requireBoundGroup(db: Queryable, sender: InboundSender, eventType: InboundEventType, data: unknown): Promise<void> {
  const group = eventType.boundGroup ? await eventType.boundGroup(db, data) : (eventType.groupId?.(data) ?? null);
  if (group === null)
    throw forbidden(`Integration ${sender.id} may not send ${eventType.type}: the event belongs to no group it is bound to`);
  if (!sender.groupIds.includes(group)) throw forbidden(`Integration ${sender.id} is not bound to the event's group`);
}
