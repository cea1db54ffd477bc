import type { Queryable } from '../../db/pool.js';
import type { Logger } from '../../lib/logger.js';
import type { AuditEntry, AuditLog } from '../../lib/audit-entry.js';
import { appendAudit, appendAuditBatch } from './audit.repo.js';

type Row = AuditEntry & { at: Date };

/** Attempts of a row whose write keeps failing (the database away) before it is given up, loudly. */
const MAX_ATTEMPTS = 5;
const RETRY_MS = 1_000;

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
export class AuditWriter implements AuditLog {
  private pending: Row[] = [];
  /** Failed attempts of rows waiting to be written again. */
  private readonly attempts = new WeakMap<Row, number>();
  private flushing: Promise<void> | undefined;
  /** Ends the pause between two writes early (a full batch waiting, or close()). */
  private wake: (() => void) | undefined;
  private closing = false;
  private readonly coalesceMs: number;

  constructor(
    private readonly db: Queryable,
    private readonly logger: Logger,
    options: AuditWriterOptions = {},
  ) {
    this.coalesceMs = options.coalesceMs ?? 50;
  }

  add(entry: AuditEntry & { at: Date }): void {
    this.pending.push(entry);
    if (this.pending.length >= MAX_BATCH) this.wake?.();
    this.flushing ??= this.flush().finally(() => {
      this.flushing = undefined;
    });
  }

  /** One row at once, awaited: an operator's console action, which the operator sees recorded. */
  async writeNow(entry: AuditEntry): Promise<void> {
    await appendAudit(this.db, entry);
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
      const failed = await this.write(batch);
      if (failed.length) await this.retryLater(failed);
      if (this.pending.length && this.pending.length < MAX_BATCH && !this.closing) await this.pause(this.coalesceMs);
    }
  }

  /**
   * One statement for the batch; when it fails, row by row, so a row PostgreSQL refuses (values
   * are made storable first, so this is the unforeseen case) cannot take its neighbours with it.
   * Returns the rows that could not be written.
   */
  private async write(batch: Row[]): Promise<Row[]> {
    try {
      await appendAuditBatch(this.db, batch);
      return [];
    } catch (err) {
      if (batch.length === 1) return this.failed(batch, err);
      const failed: Row[] = [];
      for (const row of batch) {
        try {
          await appendAuditBatch(this.db, [row]);
        } catch (rowErr) {
          failed.push(...this.failed([row], rowErr));
        }
      }
      return failed;
    }
  }

  /** Counts an attempt; rows out of attempts are given up with a log line naming their request ids. */
  private failed(rows: Row[], err: unknown): Row[] {
    const e = err as { name?: string; code?: string };
    const again = rows.filter((r) => (this.attempts.set(r, (this.attempts.get(r) ?? 0) + 1).get(r) ?? 0) < MAX_ATTEMPTS && !this.closing);
    const lost = rows.filter((r) => !again.includes(r));
    if (lost.length) {
      for (const r of lost) this.attempts.delete(r);
      this.logger.error('audit write failed', {
        request_ids: lost.map((r) => r.requestId),
        rows: lost.length,
        error_name: e?.name,
        error_code: e?.code,
      });
    } else {
      this.logger.warn('audit write failed; retrying', {
        request_ids: rows.map((r) => r.requestId),
        rows: rows.length,
        error_name: e?.name,
        error_code: e?.code,
      });
    }
    return again;
  }

  /** Rows that failed go back to the front of the queue after a pause (the database may be restarting). */
  private async retryLater(rows: Row[]): Promise<void> {
    this.pending.unshift(...rows);
    if (!this.closing) await this.pause(RETRY_MS);
  }

  private pause(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(() => this.wake?.(), ms);
      this.wake = () => {
        clearTimeout(timer);
        this.wake = undefined;
        resolve();
      };
    });
  }
}
