import type { ClientRateLimitInfo, Options, Store } from 'express-rate-limit';
import type { Queryable } from '../db/pool.js';

/**
 * express-rate-limit store on PostgreSQL: fixed windows aligned on the database clock, one row
 * per key and window, counted with an atomic upsert. Every process on the database shares the
 * counts, so a limit holds however many replicas serve the API. (This file is the store's repo:
 * its SQL lives here.)
 */
export class PostgresRateLimitStore implements Store {
  readonly localKeys = false;
  readonly prefix: string;
  private windowSeconds = 60;
  private increments = 0;

  constructor(
    private readonly db: Queryable,
    options: { prefix?: string; windowMs?: number } = {},
  ) {
    this.prefix = options.prefix ?? 'rl:';
    if (options.windowMs) this.windowSeconds = Math.max(1, Math.round(options.windowMs / 1000));
  }

  init(options: Options): void {
    this.windowSeconds = Math.max(1, Math.round(options.windowMs / 1000));
  }

  private static readonly WINDOW = `to_timestamp(floor(extract(epoch FROM clock_timestamp()) / $2::int) * $2::int)`;

  async increment(key: string): Promise<ClientRateLimitInfo> {
    const { rows } = await this.db.query<{ hits: number; reset_time: Date }>(
      `INSERT INTO rate_limit_hits (key, window_start, hits)
       VALUES ($1, ${PostgresRateLimitStore.WINDOW}, 1)
       ON CONFLICT (key, window_start) DO UPDATE SET hits = rate_limit_hits.hits + 1
       RETURNING hits, window_start + make_interval(secs => $2::int) AS reset_time`,
      [this.prefix + key, this.windowSeconds],
    );
    // Old windows are dead weight: sweep them now and then rather than on every request.
    if (++this.increments % 500 === 1) void this.sweep().catch(() => {});
    return { totalHits: rows[0].hits, resetTime: new Date(rows[0].reset_time) };
  }

  async get(key: string): Promise<ClientRateLimitInfo | undefined> {
    const { rows } = await this.db.query<{ hits: number; reset_time: Date }>(
      `SELECT hits, window_start + make_interval(secs => $2::int) AS reset_time FROM rate_limit_hits
       WHERE key = $1 AND window_start = ${PostgresRateLimitStore.WINDOW}`,
      [this.prefix + key, this.windowSeconds],
    );
    return rows[0] ? { totalHits: rows[0].hits, resetTime: new Date(rows[0].reset_time) } : undefined;
  }

  async decrement(key: string): Promise<void> {
    await this.db.query(
      `UPDATE rate_limit_hits SET hits = greatest(hits - 1, 0)
       WHERE key = $1 AND window_start = ${PostgresRateLimitStore.WINDOW}`,
      [this.prefix + key, this.windowSeconds],
    );
  }

  async resetKey(key: string): Promise<void> {
    await this.db.query(`DELETE FROM rate_limit_hits WHERE key = $1`, [this.prefix + key]);
  }

  private async sweep(): Promise<void> {
    await this.db.query(`DELETE FROM rate_limit_hits WHERE window_start < clock_timestamp() - make_interval(secs => $1::int)`, [
      this.windowSeconds * 2,
    ]);
  }
}

/** Removes windows that ended more than an hour ago: they no longer count for anyone. */
export async function deleteExpiredRateLimitWindows(db: Queryable): Promise<number> {
  const { rowCount } = await db.query(`DELETE FROM rate_limit_hits WHERE window_start < now() - interval '1 hour'`);
  return rowCount ?? 0;
}
