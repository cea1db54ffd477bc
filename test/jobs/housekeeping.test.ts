import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { housekeep } from '../../src/modules/housekeeping/housekeeping.job.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';

describe('housekeeping', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  it('deletes expired rate-limit windows and day-old idempotency keys, and keeps current ones', async () => {
    const tag = randomUUID();
    const db = t.deps.pool;
    await db.query(`INSERT INTO rate_limit_hits (key, window_start, hits) VALUES ($1, now() - interval '2 hours', 3), ($2, now(), 1)`, [
      `old-${tag}`,
      `new-${tag}`,
    ]);
    await db.query(
      `INSERT INTO idempotency_keys (scope, route, key, request_hash, status, body, created_at)
       VALUES ('s', 'r', $1, 'h', 202, '{}', now() - interval '25 hours'), ('s', 'r', $2, 'h', 202, '{}', now())`,
      [`old-${tag}`, `new-${tag}`],
    );

    const removed = await housekeep(t.deps);
    expect(removed.rateLimitWindows).toBeGreaterThanOrEqual(1);
    expect(removed.idempotencyKeys).toBeGreaterThanOrEqual(1);

    // SQL: the rate-limit and idempotency rows have no API; the point is that housekeeping deletes them.
    const left = await db.query(
      `SELECT key FROM rate_limit_hits WHERE key LIKE $1 UNION ALL SELECT key FROM idempotency_keys WHERE key LIKE $1 ORDER BY 1`,
      [`%${tag}`],
    );
    expect(left.rows.map((r) => r.key)).toEqual([`new-${tag}`, `new-${tag}`]);
  });
});
