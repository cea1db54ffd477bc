import type { Queryable } from '../../db/pool.js';
import { insertInboundEventsWithJobs, type IngestOutcome, type NewInboundEvent } from './inbound-events.repo.js';

/**
 * stored: inserted and enqueued (committed); duplicate: stored before; revoked: its integration
 * was revoked by the time of the insert, nothing stored (the sender answers as for a revoked one).
 */
export type StoreOutcome = 'stored' | 'duplicate' | 'revoked';

interface Pending {
  event: NewInboundEvent;
  resolve(outcome: StoreOutcome): void;
  reject(err: unknown): void;
}

export interface IngestBatcherOptions {
  /** Events per statement at most. */
  maxBatch?: number;
  /** Statements in flight at once (each holds one pool client); 1 by default. */
  maxInFlight?: number;
}

/**
 * Stores inbound events and their jobs, many per statement: whatever arrived while earlier
 * statements ran goes in the next one (one INSERT of the events that also enqueues their jobs,
 * in its own implicit transaction: inbound-events.repo.ts). Alone, an event is written at once;
 * under load, one round trip and one commit serve a whole batch. Every caller still waits for its
 * own commit. A failed batch is retried event by event, so one bad event fails only its own request.
 */
export class IngestBatcher {
  private readonly pending: Pending[] = [];
  private inFlight = 0;
  private readonly maxBatch: number;
  private readonly maxInFlight: number;

  constructor(
    private readonly db: Queryable,
    options: IngestBatcherOptions = {},
  ) {
    this.maxBatch = options.maxBatch ?? 200;
    // One statement at a time: under load the next batch gathers while one commits, so batches are
    // larger and each request costs the database and the server less than with two in flight
    // (README "Why it is built this way"). A quiet moment still writes at once.
    this.maxInFlight = options.maxInFlight ?? 1;
  }

  /** Resolves once committed: `stored`, `duplicate` (stored before) or `revoked` (its integration was revoked, nothing stored). */
  store(event: NewInboundEvent): Promise<StoreOutcome> {
    return new Promise((resolve, reject) => {
      this.pending.push({ event, resolve, reject });
      this.drain();
    });
  }

  private drain(): void {
    while (this.pending.length && this.inFlight < this.maxInFlight) {
      const batch = this.pending.splice(0, this.maxBatch);
      this.inFlight++;
      void this.settle(batch).finally(() => {
        this.inFlight--;
        this.drain();
      });
    }
  }

  private async settle(batch: Pending[]): Promise<void> {
    try {
      const outcome = await insertInboundEventsWithJobs(
        this.db,
        batch.map((p) => p.event),
      );
      // Two copies of one event in a batch: the first is stored, the later ones are duplicates.
      for (const p of batch) p.resolve(outcomeOf(outcome, p.event.id));
    } catch (err) {
      if (batch.length === 1) {
        batch[0].reject(err);
        return;
      }
      for (const p of batch) {
        await insertInboundEventsWithJobs(this.db, [p.event]).then((outcome) => p.resolve(outcomeOf(outcome, p.event.id)), p.reject);
      }
    }
  }
}

/** One event's outcome; a stored id is taken once, so a second copy in the same batch is a duplicate. */
function outcomeOf(outcome: IngestOutcome, id: string): StoreOutcome {
  if (outcome.revoked.has(id)) return 'revoked';
  return outcome.stored.delete(id) ? 'stored' : 'duplicate';
}
