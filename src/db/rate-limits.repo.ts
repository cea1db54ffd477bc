import type { Queryable } from './pool.js';

// The rate_limit_hits table: fixed windows aligned on the database clock, one row per key and
// window, counted with an atomic upsert (http/rate-limit-store.ts is express-rate-limit's view of it).

export interface WindowHits {
  hits: number;
  resetTime: Date;
}

/** The window of `seconds` that holds the database's clock now ($2 is its length). */
const WINDOW = `to_timestamp(floor(extract(epoch FROM clock_timestamp()) / $2::int) * $2::int)`;

/** Counts one hit of `key` in the current window; returns the window's hits and end. */
export async function addRateLimitHit(db: Queryable, key: string, windowSeconds: number): Promise<WindowHits> {
  const { rows } = await db.query<{ hits: number; reset_time: Date }>(
    `INSERT INTO rate_limit_hits (key, window_start, hits)
     VALUES ($1, ${WINDOW}, 1)
     ON CONFLICT (key, window_start) DO UPDATE SET hits = rate_limit_hits.hits + 1
     RETURNING hits, window_start + make_interval(secs => $2::int) AS reset_time`,
    [key, windowSeconds],
  );
  return { hits: rows[0].hits, resetTime: new Date(rows[0].reset_time) };
}

export async function findRateLimitHits(db: Queryable, key: string, windowSeconds: number): Promise<WindowHits | undefined> {
  const { rows } = await db.query<{ hits: number; reset_time: Date }>(
    `SELECT hits, window_start + make_interval(secs => $2::int) AS reset_time FROM rate_limit_hits
     WHERE key = $1 AND window_start = ${WINDOW}`,
    [key, windowSeconds],
  );
  return rows[0] ? { hits: rows[0].hits, resetTime: new Date(rows[0].reset_time) } : undefined;
}

export async function removeRateLimitHit(db: Queryable, key: string, windowSeconds: number): Promise<void> {
  await db.query(
    `UPDATE rate_limit_hits SET hits = greatest(hits - 1, 0)
     WHERE key = $1 AND window_start = ${WINDOW}`,
    [key, windowSeconds],
  );
}

export async function deleteRateLimitKey(db: Queryable, key: string): Promise<void> {
  await db.query(`DELETE FROM rate_limit_hits WHERE key = $1`, [key]);
}

/** Windows that ended `olderThanSeconds` ago or more (as measured by clock_timestamp()). */
export async function deleteRateLimitWindowsBefore(db: Queryable, olderThanSeconds: number): Promise<void> {
  await db.query(`DELETE FROM rate_limit_hits WHERE window_start < clock_timestamp() - make_interval(secs => $1::int)`, [olderThanSeconds]);
}

/** Removes windows that ended more than an hour ago: they no longer count for anyone. */
export async function deleteExpiredRateLimitWindows(db: Queryable): Promise<number> {
  const { rowCount } = await db.query(`DELETE FROM rate_limit_hits WHERE window_start < now() - interval '1 hour'`);
  return rowCount ?? 0;
}
