import type { z } from 'zod';
import type { AppDeps } from '../../app-deps.js';
import type { WebhookSource } from './envelope.js';
import type { OpenInboundEvent, StoredInboundEvent } from './inbound-events.repo.js';
import { callEventTypes } from './types/call-events.js';
import { catalogEventTypes } from './types/catalog.js';
import { encounterTranscriptType } from './types/encounter-transcript.js';
import { hl7EventTypes } from './types/hl7-messages.js';

/** One kind of inbound event: the shape of its data, its group, and the work it starts. */
export interface InboundEventType<D = any> {
  source: WebhookSource;
  type: string;
  data: z.ZodType<D>;
  /** The group the event's resources belong to, when it names one. */
  groupId?: (data: D) => string | null;
  /** Does the event's work; runs in a job, may run again after a crash, so must be idempotent. */
  process(deps: AppDeps, event: StoredInboundEvent): Promise<void>;
  /**
   * Optional: the work of many events of this type at once (one statement for a batch), in the
   * order given. When it throws, the worker falls back to process() for each, so one bad event
   * fails only itself.
   */
  processMany?(deps: AppDeps, events: OpenInboundEvent[]): Promise<void>;
}

const TYPES: InboundEventType[] = [encounterTranscriptType, ...catalogEventTypes, ...callEventTypes, ...hl7EventTypes];

export function eventTypeFor(source: WebhookSource, type: string): InboundEventType | undefined {
  return TYPES.find((t) => t.source === source && t.type === type);
}
