import type { Queryable } from '../../db/pool.js';
import type { Logger } from '../../lib/logger.js';
import { appendAuditBatch, type AuditEntry } from './audit.repo.js';

/** Rows per INSERT at most. */
const MAX_BATCH = 500;

export interface AuditWriterOptions {
  /** While rows keep arriving, one statement at most this often (ms); a quiet moment writes at once. */
  coalesceMs?: number;
}

/**
 * Writes audit rows in batches, off the request's path. The first row after a quiet moment is
 * written at once; while rows keep arriving, what gathered is written every `coalesceMs` (or as
 * soon as a full batch is waiting), so under load the audit costs one INSERT per batch rather than
 * a database round trip per request. close() writes what is still pending (shutdown, after HTTP
 * has stopped and before the pool closes).
 */
export class AuditWriter {
  private pending: Array<AuditEntry & { at: Date }> = [];
  private flushing: Promise<void> | undefined;
  /** Ends the pause between two writes early (a full batch waiting, or close()). */
  private wake: (() => void) | undefined;
  private closing = false;
  private readonly coalesceMs: number;

  constructor(private readonly db: Queryable, private readonly logger: Logger, options: AuditWriterOptions = {}) {
    this.coalesceMs = options.coalesceMs ?? 50;
  }

  add(entry: AuditEntry & { at: Date }): void {
    this.pending.push(entry);
    if (this.pending.length >= MAX_BATCH) this.wake?.();
    this.flushing ??= this.flush().finally(() => {
      this.flushing = undefined;
    });
  }

  /** Writes every pending row; later add() calls still write (each at once). */
  async close(): Promise<void> {
    this.closing = true;
    this.wake?.();
    await this.flushing;
  }

  private async flush(): Promise<void> {
    while (this.pending.length) {
      const batch = this.pending.splice(0, MAX_BATCH);
      try {
        await appendAuditBatch(this.db, batch);
      } catch (err) {
        this.logger.error('audit write failed', { request_ids: batch.map((e) => e.requestId), rows: batch.length, error_name: (err as Error).name });
      }
      if (this.pending.length && this.pending.length < MAX_BATCH && !this.closing) await this.pause();
    }
  }

  private pause(): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(() => this.wake?.(), this.coalesceMs);
      this.wake = () => {
        clearTimeout(timer);
        this.wake = undefined;
        resolve();
      };
    });
  }
}
