import type { ClientRateLimitInfo, Options, Store } from 'express-rate-limit';
import type { Queryable } from '../db/pool.js';
import {
  addRateLimitHit,
  deleteRateLimitKey,
  deleteRateLimitWindowsBefore,
  findRateLimitHits,
  removeRateLimitHit,
} from '../db/rate-limits.repo.js';

/**
 * express-rate-limit store on PostgreSQL (db/rate-limits.repo.ts): every process on the database
 * shares the counts, so a limit holds however many replicas serve the API.
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

  async increment(key: string): Promise<ClientRateLimitInfo> {
    const { hits, resetTime } = await addRateLimitHit(this.db, this.prefix + key, this.windowSeconds);
    // Old windows are dead weight: sweep them now and then rather than on every request.
    if (++this.increments % 500 === 1) void deleteRateLimitWindowsBefore(this.db, this.windowSeconds * 2).catch(() => {});
    return { totalHits: hits, resetTime };
  }

  async get(key: string): Promise<ClientRateLimitInfo | undefined> {
    const found = await findRateLimitHits(this.db, this.prefix + key, this.windowSeconds);
    return found && { totalHits: found.hits, resetTime: found.resetTime };
  }

  async decrement(key: string): Promise<void> {
    await removeRateLimitHit(this.db, this.prefix + key, this.windowSeconds);
  }

  async resetKey(key: string): Promise<void> {
    await deleteRateLimitKey(this.db, this.prefix + key);
  }
}
