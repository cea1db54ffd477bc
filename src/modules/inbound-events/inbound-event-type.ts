import type { z } from 'zod';
import type { AppDeps } from '../../app-deps.js';
import type { WebhookSource } from './envelope.js';
import type { OpenInboundEvent, StoredInboundEvent } from './inbound-events.repo.js';

/** One kind of inbound event: the shape of its data, its group, and the work it starts. */
// Each type names its own data; the table of types holds them all.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export interface InboundEventType<D = any> {
  source: WebhookSource;
  type: string;
  data: z.ZodType<D>;
  /** The group the event's resources belong to, when it names one. */
  groupId?: (data: D) => string | null;
  /**
   * Does the event's work; runs in a job, may run again after a crash, so must be idempotent.
   * 'continues': the work goes on in other jobs (the documentation pipeline), which end the
   * event; the event stays `processing` until then.
   */
  process(deps: AppDeps, event: StoredInboundEvent): Promise<void | 'continues'>;
  /**
   * Optional: the work of many events of this type at once (one statement for a batch), in the
   * order given. When it throws, the worker falls back to process() for each, so one bad event
   * fails only itself.
   */
  processMany?(deps: AppDeps, events: OpenInboundEvent[]): Promise<void>;
}
