/**
 * Ingest soak: the app in its default configuration (ROLE=all, the job runner in process)
 * takes signed unique `center.upserted` events at 50 connections, window after window, until at
 * least `--events` (300,000) were accepted in a row, while inbound_events, pgboss.job and
 * audit_log grow. Each window reports throughput, p99, server and database CPU per request, the
 * worker backlog, the tables' sizes, and the checkpoints and autovacuum runs it saw. Goals: every
 * answer a 202, and the last window's throughput within 10% of the first's (>= 0.9x).
 *
 *   npm run bench:soak -- [--events 300000] [--window 20] [--warmup 10] [--connections 50] [--log-level info] [--role all|api]
 */
import { parseArgs } from 'node:util';
import pg from 'pg';
import type { Result } from 'autocannon';
import { createBenchDatabase } from './lib/database.js';
import { isMain, runStandalone } from './lib/standalone.js';
import type { BenchContext, BenchResult } from './lib/types.js';
import { benchAppEnv, cpuSeconds, databaseCpuReader, load, startMeasured, stopServer, workerBacklog } from './ingest.js';

export interface SoakOptions extends BenchContext {
  events?: number;
  windowSeconds?: number;
  warmup?: number;
  connections?: number;
  logLevel?: string;
  /** `all` (default: workers in process) or `api` (ingest alone, to tell the two apart). */
  role?: 'all' | 'api';
}

interface Window {
  rps: number;
  p99: number;
  accepted: number;
  serverUs: number;
  dbUs: number;
  backlog: number;
  mb: Record<string, number>;
  checkpoints: number;
  autovacuums: number;
}

const TABLES = ['inbound_events', 'pgboss.job', 'audit_log'];

/** What the database says about growth: table sizes (MB, with indexes and TOAST), checkpoints, autovacuum runs. */
async function databaseState(client: pg.Client) {
  const mb: Record<string, number> = {};
  for (const t of TABLES) {
    // pgboss.job is partitioned: its size is its partitions'.
    const { rows } = await client.query(
      `SELECT coalesce(sum(pg_total_relation_size(c.oid)), 0)::float8 / 1048576 AS mb
         FROM pg_class c WHERE c.oid = $1::regclass OR c.oid IN (SELECT inhrelid FROM pg_inherits WHERE inhparent = $1::regclass)`,
      [t],
    );
    mb[t] = rows[0].mb;
  }
  const autovacuum = (await client.query(`SELECT current_setting('autovacuum') AS v`)).rows[0].v as string;
  const checkpoints = await client
    .query(`SELECT (num_timed + num_requested)::int AS n FROM pg_stat_checkpointer`)
    .catch(() => client.query(`SELECT (checkpoints_timed + checkpoints_req)::int AS n FROM pg_stat_bgwriter`));
  // Vacuum and analyze runs of every table, by the autovacuum daemon or by the app's dead-row sweeper (when autovacuum is off).
  const vacuums = await client.query(
    `SELECT coalesce(sum(autovacuum_count + autoanalyze_count + vacuum_count + analyze_count), 0)::int AS n FROM pg_stat_user_tables`,
  );
  const backlog = await client.query(`SELECT count(*)::int AS n FROM inbound_events WHERE status NOT IN ('completed', 'failed')`);
  return {
    mb,
    autovacuum,
    checkpoints: checkpoints.rows[0].n as number,
    autovacuums: vacuums.rows[0].n as number,
    backlog: backlog.rows[0].n as number,
  };
}

const accepted = (r: Result) => Number(r.statusCodeStats?.['202']?.count ?? 0);

export async function run(options: SoakOptions): Promise<BenchResult[]> {
  const o = {
    events: options.events ?? 300_000,
    windowSeconds: options.windowSeconds ?? 20,
    warmup: options.warmup ?? 10,
    connections: options.connections ?? 50,
  };
  const db = await createBenchDatabase(options.adminUrl, 'soak');
  // Signed on the fly past a small pool: the same cost in every window, and no 300,000 bodies in memory.
  const app = await startMeasured('app', 'src/main.ts', benchAppEnv(db.url, options.role ?? 'all', options.logLevel ?? 'info'), 10_000);
  const client = new pg.Client({ connectionString: db.url });
  await client.connect();
  // The bench database's backends only: the machine's PostgreSQL may serve other work too.
  const dbCpu = await databaseCpuReader(db.url);
  const windows: Window[] = [];
  let total = 0;
  let failures = 0;
  try {
    const warm = await load(app.port, o.warmup, o.connections, app.events);
    total += accepted(warm);
    failures += warm.non2xx + warm.errors;
    options.log(`soak: warm-up ${o.warmup} s, ${accepted(warm)} accepted; then ${o.windowSeconds} s windows until ${o.events} accepted`);
    let before = await databaseState(client);
    while (total < o.events) {
      const cpu0 = cpuSeconds(app.child.pid);
      const db0 = await dbCpu.read();
      const r = await load(app.port, o.windowSeconds, o.connections, app.events);
      const cpu1 = cpuSeconds(app.child.pid);
      const db1 = await dbCpu.read();
      const after = await databaseState(client);
      const n = r.requests.total || 1;
      const w: Window = {
        rps: r.requests.total / r.duration,
        p99: r.latency.p99,
        accepted: accepted(r),
        serverUs: cpu0 !== undefined && cpu1 !== undefined ? (1e6 * (cpu1 - cpu0)) / n : NaN,
        dbUs: db0 !== undefined && db1 !== undefined ? (1e6 * (db1 - db0)) / n : NaN,
        backlog: after.backlog,
        mb: after.mb,
        checkpoints: after.checkpoints - before.checkpoints,
        autovacuums: after.autovacuums - before.autovacuums,
      };
      before = after;
      windows.push(w);
      total += w.accepted;
      failures += r.non2xx + r.errors;
      options.log(
        `  window ${windows.length}: ${Math.round(w.rps)} req/s, p99 ${w.p99} ms, ${total} accepted so far; CPU per request server ${Math.round(w.serverUs)} µs, ` +
          `database ${Math.round(w.dbUs)} µs; backlog ${w.backlog}; MB ${TABLES.map((t) => `${t} ${w.mb[t].toFixed(0)}`).join(', ')}; ` +
          `checkpoints ${w.checkpoints}, vacuum/analyze runs ${w.autovacuums}`,
      );
    }
    const drained = await workerBacklog(db.url);
    await stopServer(app.child);
    const stored = (await client.query(`SELECT count(*)::int AS n FROM inbound_events`)).rows[0].n as number;
    if (stored < total) throw new Error(`app answered 202 ${total} times but stored ${stored} events`);

    const first = windows[0];
    const last = windows[windows.length - 1];
    const series = (f: (w: Window) => number) => windows.map((w) => Math.round(f(w))).join(', ');
    return [
      {
        name: 'soak: events accepted in a row',
        value: total,
        unit: 'events',
        target: { op: '>=', value: o.events },
        note: `${stored} stored; ${windows.length} windows of ${o.windowSeconds} s after a ${o.warmup} s warm-up; ROLE=${options.role ?? 'all'}`,
      },
      { name: 'soak: non-2xx answers and errors', value: failures, unit: 'count', target: { op: '<=', value: 0 } },
      { name: 'soak: first window req/s', value: first.rps, unit: 'req/s', note: `per window: ${series((w) => w.rps)}` },
      { name: 'soak: last window req/s', value: last.rps, unit: 'req/s' },
      { name: 'ratio: soak last / first window req/s', value: last.rps / first.rps, unit: 'x', target: { op: '>=', value: 0.9 } },
      { name: 'soak: first window p99', value: first.p99, unit: 'ms', note: `per window: ${series((w) => w.p99)}` },
      { name: 'soak: last window p99', value: last.p99, unit: 'ms' },
      {
        name: 'soak: server CPU per request, first / last window',
        value: first.serverUs,
        unit: 'µs',
        note: `last ${Math.round(last.serverUs)} µs; per window: ${series((w) => w.serverUs)}`,
      },
      // Steadier than req/s on a shared machine: other load slows the clock, not the work per request.
      {
        name: 'ratio: soak first / last window server CPU per request',
        value: first.serverUs / last.serverUs,
        unit: 'x',
        note: 'context for the req/s ratio: below 1 means each request costs more as the tables grow',
      },
      {
        name: 'soak: database CPU per request, first / last window',
        value: first.dbUs,
        unit: 'µs',
        note: `last ${Math.round(last.dbUs)} µs; per window: ${series((w) => w.dbUs)}`,
      },
      {
        name: 'soak: worker backlog at the last window',
        value: last.backlog,
        unit: 'events',
        note: `per window: ${series((w) => w.backlog)}; drained in ${drained?.drainSeconds.toFixed(1)} s after the load`,
      },
      ...TABLES.map((t) => ({
        name: `soak: ${t} size at the end`,
        value: last.mb[t],
        unit: 'MB',
        note: `per window: ${series((w) => w.mb[t])}`,
      })),
      {
        name: 'soak: checkpoints during the windows',
        value: windows.reduce((n, w) => n + w.checkpoints, 0),
        unit: 'count',
        note: `per window: ${series((w) => w.checkpoints)}`,
      },
      {
        name: 'soak: vacuum and analyze runs (auto or the sweeper)',
        value: windows.reduce((n, w) => n + w.autovacuums, 0),
        unit: 'count',
        note: `per window: ${series((w) => w.autovacuums)}; the server's autovacuum: ${before.autovacuum}`,
      },
    ];
  } finally {
    await stopServer(app.child);
    await client.end().catch(() => {});
    await dbCpu.close().catch(() => {});
    await db.drop();
  }
}

if (isMain(import.meta.url)) {
  const { values } = parseArgs({
    options: {
      events: { type: 'string', default: '300000' },
      window: { type: 'string', default: '20' },
      warmup: { type: 'string', default: '10' },
      connections: { type: 'string', default: '50' },
      'log-level': { type: 'string', default: 'info' },
      role: { type: 'string', default: 'all' },
    },
  });
  await runStandalone((ctx) =>
    run({
      ...ctx,
      events: Number(values.events),
      windowSeconds: Number(values.window),
      warmup: Number(values.warmup),
      connections: Number(values.connections),
      logLevel: values['log-level'],
      role: values.role === 'api' ? 'api' : 'all',
    }),
  );
}
