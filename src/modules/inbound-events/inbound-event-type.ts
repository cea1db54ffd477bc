import type { PgBoss } from 'pg-boss';
import type { z } from 'zod';
import type { Pool, Queryable } from '../../db/pool.js';
import type { WebhookSource } from './envelope.js';
import type { OpenInboundEvent, StoredInboundEvent } from './inbound-events.repo.js';

/**
 * One kind of inbound event, declared by the feature module that handles it (`<type>.event.ts`)
 * and listed by the root's event-registry.ts: the shape of its data, its group, and the work it
 * starts. The intake (this module) stores, queues and processes events through this shape alone
 * and imports no feature module.
 */
/** What an event's work may use: the database and the queue (the rest goes to jobs it starts). */
export interface EventWorkDeps {
  pool: Pool;
  boss: PgBoss;
}

// Each type names its own data; the table of types holds them all.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export interface InboundEventType<D = any> {
  source: WebhookSource;
  type: string;
  data: z.ZodType<D>;
  /** The group the event's resources belong to, when it names one (stored with the event). */
  groupId?: (data: D) => string | null;
  /**
   * The group an integration must be bound to for sending it, when the data alone does not say
   * (a call event: the call's group). Default: groupId.
   */
  boundGroup?: (db: Queryable, data: D) => Promise<string | null>;
  /**
   * Does the event's work; runs in a job, may run again after a crash, so must be idempotent.
   * 'continues': the work goes on in other jobs (the documentation pipeline), which end the
   * event (end-event.ts); the event stays `processing` until then.
   */
  process(deps: EventWorkDeps, event: StoredInboundEvent): Promise<void | 'continues'>;
  /**
   * Optional: the work of many events of this type at once (one statement for a batch), in the
   * order given. When it throws, the job falls back to process() for each, so one bad event
   * fails only itself.
   */
  processMany?(deps: EventWorkDeps, events: OpenInboundEvent[]): Promise<void>;
  /** Optional: the state of the work it started, by the event's row id, as GET /api/v1/webhooks/events/{id} shows it (`pipeline`). */
  progress?(db: Queryable, eventRowId: string): Promise<Record<string, unknown>>;
}

/** The registered types, found by source and type (the root builds it from event-registry.ts). */
export class InboundEventTypes {
  private readonly byKey: Map<string, InboundEventType>;

  constructor(readonly all: readonly InboundEventType[]) {
    this.byKey = new Map(all.map((t) => [`${t.source} ${t.type}`, t]));
    if (this.byKey.size !== all.length) throw new Error('An inbound event type is registered twice');
  }

  find(source: WebhookSource, type: string): InboundEventType | undefined {
    return this.byKey.get(`${source} ${type}`);
  }
}
