import type { Queryable } from '../../db/pool.js';
import { forbidden } from '../../lib/errors.js';
import { findCall } from '../calls/calls.repo.js';
import type { InboundSender } from '../../http/inbound-sender.js';
import type { InboundEventType } from './event-types.js';

/**
 * An integration writes only the groups it is bound to: the event's group (`data.group_id`; for a
 * call event, the group of the call it updates) must be one of them, else 403 and nothing is
 * stored. An event without a group (the shared centers catalog, a call of no group) is the
 * deployment-wide senders' to send.
 */
export async function requireBoundGroup(db: Queryable, sender: InboundSender, eventType: InboundEventType, data: unknown): Promise<void> {
  let group = eventType.groupId?.(data) ?? null;
  const callId = (data as { callId?: unknown }).callId;
  if (eventType.source === 'voice' && typeof callId === 'string') group = (await findCall(db, callId))?.groupId ?? null;
  if (group === null)
    throw forbidden(`Integration ${sender.id} may not send ${eventType.type}: the event belongs to no group it is bound to`);
  if (!sender.groupIds.includes(group)) throw forbidden(`Integration ${sender.id} is not bound to the event's group`);
}
