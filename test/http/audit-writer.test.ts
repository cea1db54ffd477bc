import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createPool, type Pool, type Queryable } from '../../src/db/pool.js';
import { createLogger } from '../../src/lib/logger.js';
import { AuditWriter } from '../../src/modules/audit/audit-writer.js';
import { capturingLogger } from '../helpers/chaos-logs.js';

/** The pool, counting the statements the writer sends. */
function counting(pool: Pool): Queryable & { statements: number } {
  const db = {
    statements: 0,
    query: ((text: never, values?: unknown[]) => {
      db.statements++;
      return pool.query(text, values);
    }) as Queryable['query'],
  };
  return db;
}

const entry = (requestId: string) => ({ at: new Date(), requestId, operation: 'POST /api/v1/webhooks/ehr', status: 202 });

describe('audit writer', () => {
  let pool: Pool;
  const silent = createLogger('error', { silent: true });
  beforeAll(() => {
    pool = createPool(inject('databaseUrl'), 2);
  });
  afterAll(() => pool.end());

  // SQL: the writer alone, on a pool with no app to ask.
  async function rowsOf(prefix: string): Promise<number> {
    const { rows } = await pool.query(`SELECT count(*)::int AS n FROM audit_log WHERE request_id LIKE $1`, [`${prefix}%`]);
    return rows[0].n;
  }

  it('writes a lone row at once, without waiting for company', async () => {
    const writer = new AuditWriter(pool, silent, { coalesceMs: 60_000 });
    const prefix = `lone-${randomUUID()}`;
    writer.add(entry(`${prefix}-1`));
    for (let i = 0; i < 50 && (await rowsOf(prefix)) < 1; i++) await new Promise((r) => setTimeout(r, 20));
    expect(await rowsOf(prefix)).toBe(1);
    await writer.close();
  });

  it('gathers rows that keep arriving into few statements, and close() writes what is left', async () => {
    const db = counting(pool);
    const writer = new AuditWriter(db, silent, { coalesceMs: 60_000 });
    const prefix = `burst-${randomUUID()}`;
    // 1,000 answers finishing in groups over 200 ms: a writer without a pause would send a
    // statement per group.
    for (let turn = 0; turn < 20; turn++) {
      for (let i = 0; i < 50; i++) writer.add(entry(`${prefix}-${turn}-${i}`));
      await new Promise((r) => setTimeout(r, 10));
    }
    // The pause between writes is a minute here: only close() (or a full batch) ends it early.
    const started = Date.now();
    await writer.close();
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(await rowsOf(prefix)).toBe(1_000);
    // The first group at once, then the rest in batches of up to 500 at close().
    expect(db.statements).toBeLessThanOrEqual(3);
  });

  it('a failed write is logged with request ids only, and later rows still go in', async () => {
    const { logger, lines } = capturingLogger();
    let fail = true;
    const db: Queryable = {
      query: ((text: never, values?: unknown[]) =>
        fail ? Promise.reject(new Error('connection lost')) : pool.query(text, values)) as Queryable['query'],
    };
    const writer = new AuditWriter(db, logger, { coalesceMs: 10 });
    const prefix = `fail-${randomUUID()}`;
    writer.add(entry(`${prefix}-lost`));
    await writer.close();
    fail = false;
    writer.add(entry(`${prefix}-kept`));
    await writer.close();
    expect(await rowsOf(`${prefix}-kept`)).toBe(1);
    expect(lines.join('\n')).toContain(`${prefix}-lost`);
    expect(lines.join('\n')).toContain('audit write failed');
  });
});
