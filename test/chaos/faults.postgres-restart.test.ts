import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmbeddedPostgres, type EmbeddedDatabase } from '../../src/db/embedded.js';
import { migrate } from '../../src/db/migrate.js';
import { createPool } from '../../src/db/pool.js';
import { freePort } from '../../src/lib/free-port.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';
import { newCaller, type Caller } from '../helpers/tokens.js';
import { createRun, newThread, runBody } from '../runs/runs.builders.js';

/**
 * PostgreSQL stopped and started again under load: an embedded cluster of this test's own (temp
 * directory, free port), never the machine's shared service. While it is down the API answers
 * 503 with the spec body; once it is back, the same process serves again by itself.
 */
describe('fault: PostgreSQL restarted under load', () => {
  let dir: string;
  let port: number;
  let pg: EmbeddedDatabase;
  let t: TestApp;
  let caller: Caller;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'clinigate-chaos-pg-'));
    port = await freePort();
    pg = await startEmbeddedPostgres(dir, port);
    const pool = createPool(pg.connectionString, 2);
    await migrate(pool);
    await pool.end();
    // Supervised like the service: a job active when the database went away is expired and retried.
    t = await startTestApp({ env: { DATABASE_URL: pg.connectionString }, workers: true, supervise: true });
    caller = await newCaller();
  }, 120_000);
  afterAll(async () => {
    await t?.close();
    await pg?.stop().catch(() => {});
    rmSync(dir, { recursive: true, force: true });
  });

  const transcribe = (n: number) =>
    request(t.app)
      .post('/v1/transcriptions/create')
      .set(caller.headers)
      .send({ duration_seconds: n, original_transcript: `[doctor] visit ${n}` });

  it('answers 503 with the spec body while it is down, never 500, and loses nothing accepted', async () => {
    const accepted: string[] = [];
    const acceptedRuns: Array<{ thread: string; run: string }> = [];
    const statuses = new Map<number, number>();
    const bad: unknown[] = [];
    let n = 0;
    let stop = false;
    // Two clients writing all along: before, during and after the outage.
    const load = async () => {
      while (!stop) {
        const res = await transcribe(n++);
        statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
        if (res.status === 201) accepted.push(res.body.transcription.id);
        else if (res.status !== 503 || res.body.success !== false || res.body.error !== 'Service Unavailable' || !res.body.details)
          bad.push({ status: res.status, body: res.body });
        await new Promise((r) => setTimeout(r, 20));
      }
    };
    const thread = await newThread(t.app, caller);
    const runLoad = async () => {
      while (!stop) {
        const res = await createRun(t.app, caller, thread, runBody(thread, 'What is the plan?'));
        if (res.status === 201) acceptedRuns.push({ thread, run: res.body.run_id });
        else if (res.status !== 503) bad.push({ status: res.status, body: res.body });
        await new Promise((r) => setTimeout(r, 100));
      }
    };
    const loads = [load(), load(), runLoad()];
    await expect.poll(() => accepted.length, { timeout: 20_000 }).toBeGreaterThan(10);

    await pg.stop();
    const health = await request(t.app).get('/api/v1/health');
    expect(health.status).toBe(503);
    expect(health.body).toMatchObject({ status: 'down', checks: { database: { status: 'down' } } });
    const during = await transcribe(1);
    expect(during.status).toBe(503);
    expect(during.body).toEqual({ success: false, error: 'Service Unavailable', details: expect.stringMatching(/database/i) });
    const read = await request(t.app).get(`/v1/transcriptions/${accepted[0]}`).set(caller.headers);
    expect(read.status).toBe(503);
    const metrics = await request(t.app).get('/metrics');
    expect(metrics.status).toBe(200);
    await new Promise((r) => setTimeout(r, 1_500)); // the load keeps hitting the stopped database

    pg = await startEmbeddedPostgres(dir, port); // same data directory and port
    const before = accepted.length;
    await expect.poll(() => accepted.length, { timeout: 30_000, interval: 200 }).toBeGreaterThan(before + 10);
    await expect.poll(async () => (await request(t.app).get('/api/v1/health')).status, { timeout: 30_000 }).toBe(200);
    stop = true;
    await Promise.all(loads);

    expect(bad).toEqual([]);
    expect(statuses.get(503)).toBeGreaterThan(0);
    expect([...statuses.keys()].sort()).toEqual([201, 503]);
    // SQL: chaos guard: nothing accepted lost, nothing refused stored (no API lists a group's transcriptions).
    const rows = await t.deps.pool.query(`SELECT id FROM transcriptions WHERE group_id = $1`, [caller.groupId]);
    const stored = new Set(rows.rows.map((r) => r.id));
    expect(accepted.filter((id) => !stored.has(id))).toEqual([]); // nothing accepted is lost
    expect(stored.size).toBe(accepted.length); // nothing refused was stored
    // Every accepted run ends completed, once, after the restart (workers recovered by themselves).
    await expect
      .poll(
        async () =>
          // SQL: chaos guard: every accepted run counted completed after the restart.
          (
            await t.deps.pool.query(`SELECT count(*)::int AS n FROM runs WHERE id = ANY($1) AND status = 'completed'`, [
              acceptedRuns.map((r) => r.run),
            ])
          ).rows[0].n,
        { timeout: 60_000, interval: 500 },
      )
      .toBe(acceptedRuns.length);
    // SQL: chaos guard: no duplicated messages (every stored message of the thread, by role).
    const messages = await t.deps.pool.query(
      `SELECT role, count(*)::int AS n FROM thread_messages WHERE thread_id = $1 GROUP BY role ORDER BY role`,
      [thread],
    );
    expect(messages.rows).toEqual([
      { role: 'assistant', n: acceptedRuns.length },
      { role: 'user', n: acceptedRuns.length },
    ]);
    console.info(
      `[chaos] postgres restart: statuses ${JSON.stringify(Object.fromEntries(statuses))}, runs ${acceptedRuns.length}; lost: 0`,
    );
  }, 180_000);
});
