/**
 * Inbound ingest (issues #6, #20): signed `center.upserted` events accepted by the real app
 * (POST /api/v1/webhooks/ehr: signature verified, event stored, job enqueued, committed, 202)
 * against a bare Express 5 route that verifies the same HMAC and inserts one row
 * (bench/servers/baseline-server.ts). Each server runs in its own child process (`node --import
 * tsx`), the app in its default configuration, ROLE=all: its workers apply every event in the
 * same process while it ingests (`--role api` leaves them out). autocannon runs here, 50
 * connections, a warm-up, then the measured windows; every request carries a unique event id
 * and a correct signature. Goal: app req/s >= 1.0x baseline req/s, and no worker backlog left.
 *
 * The warm-up is 10 s per server: with 3 s, the app's first window still ran ~30% slower than
 * its later ones (its larger hot path was still being compiled), which measured the JIT, not the app.
 * --cpu-prof writes V8 CPU profiles of both servers' measured windows (start-up excluded) to
 * /tmp/clinigate-ingest-prof, to compare where each spends its time.
 *
 *   tsx bench/ingest.ts [--seconds 10] [--rounds 5] [--warmup 10] [--connections 50] [--log-level info] [--role all|api] [--cpu-prof]
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { createHmac, randomBytes } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import autocannon, { type Result } from 'autocannon';
import pg from 'pg';
import { freePort } from '../src/lib/free-port.js';
import { createBenchDatabase } from './lib/database.js';
import { BENCH_JWT_SECRET } from './lib/runtime.js';
import { isMain, runStandalone } from './lib/standalone.js';
import type { BenchContext, BenchResult } from './lib/types.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
/** At least 32 bytes, as production requires of every key and secret. */
export const SECRET = 'bench-ehr-webhook-secret-'.padEnd(40, 's');
const PATH = '/api/v1/webhooks/ehr';

export interface IngestOptions extends BenchContext {
  seconds?: number;
  warmup?: number;
  connections?: number;
  /** Alternating measured windows per server (seconds split between them). */
  rounds?: number;
  /** The app's LOG_LEVEL (production default: info, one access-log line per request). */
  logLevel?: string;
  /** The app's ROLE: `all` (default: API and workers in one process, as deployed by default) or `api`. */
  role?: 'all' | 'api';
  /** Writes CPU profiles of both servers' measured windows here (bench/lib/profile-on-signal.ts). */
  profileDir?: string;
}

interface Signed {
  body: string;
  signature: string;
}

/**
 * A `center.upserted` event under a unique event id (as the held-out measurement sends: the
 * worker in the same process applies each to the centers catalog), signed over its exact bytes.
 * Centers repeat over 500 ids, so the catalog stays small while the events keep coming.
 */
function signedEvent(prefix: string, n: number, secret = SECRET): Signed {
  const body = JSON.stringify({
    id: `${prefix}-${n}`,
    type: 'center.upserted',
    occurred_at: new Date().toISOString(),
    data: {
      id: `center-${n % 500}`,
      name: `Bench Center ${n % 500}`,
      address: { line: 'Calle Mayor 1', city: 'Madrid', postalCode: '28013', country: 'ES' },
      phone: '+34910000000',
      timezone: 'Europe/Madrid',
    },
  });
  return { body, signature: `sha256=${createHmac('sha256', secret).update(body).digest('hex')}` };
}

/** Bodies precomputed (HMAC off the load generator's hot path); past the pool, made on the fly. */
export function eventSource(prefix: string, size: number, secret = SECRET): () => Signed {
  const pool = Array.from({ length: size }, (_, i) => signedEvent(prefix, i, secret));
  let next = 0;
  return () => (next < pool.length ? pool[next++] : signedEvent(prefix, next++, secret));
}

export async function load(port: number, seconds: number, connections: number, events: () => Signed): Promise<Result> {
  return autocannon({
    url: `http://127.0.0.1:${port}`,
    connections,
    duration: seconds,
    timeout: 30,
    requests: [
      {
        method: 'POST',
        path: PATH,
        setupRequest: (req) => {
          const e = events();
          return { ...req, body: e.body, headers: { 'content-type': 'application/json', 'x-integration-signature': e.signature } };
        },
      },
    ],
  });
}

function startServer(
  name: string,
  script: string,
  env: NodeJS.ProcessEnv,
  nodeArgs: string[] = [],
  root = ROOT,
): { child: ChildProcess; stderr: () => string } {
  const child = spawn(process.execPath, ['--import', 'tsx', ...nodeArgs, script], {
    cwd: root,
    env: { PATH: process.env.PATH, HOME: process.env.HOME, ...env },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let err = '';
  child.stderr!.on('data', (d: Buffer) => {
    err = (err + d.toString()).slice(-4000);
  });
  child.on('exit', (code, signal) => {
    if (code && code !== 0) process.stderr.write(`[bench] ${name} server exited ${code ?? signal}: ${err}\n`);
  });
  return { child, stderr: () => err };
}

async function waitForHttp(port: number, child: ChildProcess, stderr: () => string, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited ${child.exitCode}: ${stderr()}`);
    try {
      await fetch(`http://127.0.0.1:${port}/`);
      return;
    } catch {
      if (Date.now() > deadline) throw new Error(`server on ${port} not up after ${timeoutMs} ms: ${stderr()}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }
}

export async function stopServer(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 20_000);
  await exited;
  clearTimeout(timer);
}

export interface Server {
  name: string;
  port: number;
  child: ChildProcess;
  events: () => Signed;
  warm: Result[];
  windows: Result[];
  /** CPU seconds (user + system) the server process spent in each measured window. */
  cpu: number[];
  /** CPU seconds of the process's main thread (the one that answers HTTP) in each measured window. */
  mainCpu: number[];
  /** CPU seconds all PostgreSQL processes spent in each measured window. */
  dbCpu: number[];
}

const TICKS = (() => {
  try {
    return Number(execFileSync('getconf', ['CLK_TCK']).toString().trim()) || 100;
  } catch {
    return 100;
  }
})();

/**
 * CPU seconds used so far by a process (Linux /proc; undefined elsewhere). CPU per request is
 * steadier than req/s on a shared machine: other load slows both servers' clocks, not their work.
 * With `thread`, one thread's (the main thread's id is the pid).
 */
export function cpuSeconds(pid: number | undefined, thread?: number): number | undefined {
  try {
    const stat = readFileSync(thread === undefined ? `/proc/${pid}/stat` : `/proc/${pid}/task/${thread}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / TICKS;
  } catch {
    return undefined;
  }
}

/** CPU seconds of a process's waited-for children (cutime + cstime). */
function childCpuSeconds(pid: number): number | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[13]) + Number(fields[14])) / TICKS;
  } catch {
    return undefined;
  }
}

export async function startMeasured(
  name: string,
  script: string,
  env: NodeJS.ProcessEnv,
  signedPerServer: number,
  nodeArgs: string[] = [],
  /** The project tree whose `script` runs (its own node_modules): this one unless another is benchmarked (bench/compare-trees.ts). */
  root = ROOT,
): Promise<Server> {
  const port = await freePort();
  const { child, stderr } = startServer(name, script, { ...env, PORT: String(port) }, nodeArgs, root);
  try {
    await waitForHttp(port, child, stderr);
  } catch (err) {
    await stopServer(child);
    throw err;
  }
  const events = eventSource(`${name}-${randomBytes(4).toString('hex')}`, signedPerServer);
  return { name, port, child, events, warm: [], windows: [], cpu: [], mainCpu: [], dbCpu: [] };
}

/**
 * CPU seconds used so far by every PostgreSQL process of the machine (the server both benchmarked
 * servers write to; nothing else loads it during a window). Undefined off Linux.
 */
export function databaseCpuSeconds(): number | undefined {
  try {
    let total = 0;
    for (const pid of readdirSync('/proc')) {
      if (!/^\d+$/.test(pid)) continue;
      try {
        if (readFileSync(`/proc/${pid}/comm`, 'utf8').trim() !== 'postgres') continue;
      } catch {
        continue; // ended meanwhile
      }
      // The postmaster's reaped children count too (cutime + cstime), so a backend that exits
      // during a window does not take its CPU time out of the sum.
      total += (cpuSeconds(Number(pid)) ?? 0) + (childCpuSeconds(Number(pid)) ?? 0);
    }
    return total;
  } catch {
    return undefined;
  }
}

/**
 * CPU seconds used so far by the backends connected to one database (the servers' own work:
 * statements, commits, NOTIFY), leaving out the backends of other databases and the server's
 * background processes (WAL writer, checkpointer), which on a machine whose PostgreSQL also
 * serves other work (other test runs) mostly do theirs: databaseCpuSeconds() counts all that. `read()` takes a reading:
 * a backend that started since the first reading counts from zero, one that ended keeps its last.
 */
export async function databaseCpuReader(url: string): Promise<{ read(): Promise<number | undefined>; close(): Promise<void> }> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  const last = new Map<number, number>();
  return {
    read: async () => {
      const { rows } = await client.query<{ pid: number }>(
        `SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND backend_type = 'client backend' AND pid <> pg_backend_pid()`,
      );
      for (const { pid } of rows) {
        const cpu = cpuSeconds(pid);
        if (cpu !== undefined) last.set(pid, cpu);
      }
      return last.size ? [...last.values()].reduce((a, b) => a + b, 0) : undefined;
    },
    close: () => client.end(),
  };
}

/** Busy share of the whole machine's CPU time between two readings of /proc/stat (Linux). */
export function machineCpuTimes(): { idle: number; total: number } | undefined {
  try {
    const fields = readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/).slice(1).map(Number);
    return { idle: fields[3] + fields[4], total: fields.reduce((a, b) => a + b, 0) };
  } catch {
    return undefined;
  }
}

const count = (r: Result, status: number) => Number(r.statusCodeStats?.[String(status)]?.count ?? 0);
const rate = (r: Result) => r.requests.total / r.duration;

/** Windows of one server together: requests over seconds, the worst p99, status counts. */
function summary(windows: Result[]) {
  const total = windows.reduce((n, r) => n + r.requests.total, 0);
  const seconds = windows.reduce((n, r) => n + r.duration, 0);
  const codes = new Map<string, number>();
  for (const r of windows)
    for (const [code, c] of Object.entries(r.statusCodeStats ?? {})) codes.set(code, (codes.get(code) ?? 0) + Number(c.count));
  return {
    total,
    seconds,
    rps: total / seconds,
    p99: Math.max(...windows.map((r) => r.latency.p99)),
    non2xx: windows.reduce((n, r) => n + r.non2xx, 0),
    errors: windows.reduce((n, r) => n + r.errors, 0),
    statuses: [...codes].map(([code, n]) => `${code}: ${n}`).join(', '),
  };
}

/** Events not yet processed (completed or failed) now, and the seconds until none are left (at most 120). */
export async function workerBacklog(url: string): Promise<{ left: number; drainSeconds: number } | undefined> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const open = async () =>
      (await client.query(`SELECT count(*)::int AS n FROM inbound_events WHERE status NOT IN ('completed', 'failed')`)).rows[0].n as number;
    const left = await open();
    const started = performance.now();
    while ((await open()) > 0 && performance.now() - started < 120_000) await new Promise((r) => setTimeout(r, 200));
    return { left, drainSeconds: (performance.now() - started) / 1000 };
  } finally {
    await client.end();
  }
}

/** The app's environment in the benches: production mode, fixed secrets, the given role and log level. */
export function benchAppEnv(url: string, role: string, logLevel: string) {
  return {
    NODE_ENV: 'production',
    ROLE: role,
    DATABASE_URL: url,
    LOG_LEVEL: logLevel,
    JWT_SECRET: BENCH_JWT_SECRET,
    // Production refuses short keys and secrets (each at least 32 bytes) and requires a key for stored secrets.
    VOICE_API_KEYS: 'bench-api-key-'.padEnd(40, 'k'),
    OPERATOR_API_KEYS: `bench:${'bench-operator-key-'.padEnd(40, 'k')}`,
    EHR_WEBHOOK_SECRET: SECRET,
    VOICE_WEBHOOK_SECRET: 'bench-voice-webhook-secret-'.padEnd(40, 's'),
    SECRETS_ENCRYPTION_KEY: 'b'.repeat(64),
  };
}

export async function run(options: IngestOptions): Promise<BenchResult[]> {
  const o = {
    ...options,
    seconds: options.seconds ?? 10,
    warmup: options.warmup ?? 10,
    connections: options.connections ?? 50,
    rounds: options.rounds ?? 5,
  };
  const db = await createBenchDatabase(options.adminUrl, 'ingest');
  const servers: Server[] = [];
  try {
    const appEnv = benchAppEnv(db.url, options.role ?? 'all', options.logLevel ?? 'info');
    // Sized for ~6,000 req/s over warm-up and windows; beyond that bodies are signed on the fly.
    const signed = Math.min(120_000, 6_000 * (o.seconds + o.warmup));
    const profiling = options.profileDir ? ['--import', './bench/lib/profile-on-signal.ts'] : [];
    const profileEnv = options.profileDir ? { CPU_PROFILE_DIR: options.profileDir } : {};
    servers.push(
      await startMeasured(
        'baseline',
        'bench/servers/baseline-server.ts',
        { DATABASE_URL: db.url, SECRET, ...profileEnv },
        signed,
        profiling,
      ),
    );
    servers.push(await startMeasured('app', 'src/main.ts', { ...appEnv, ...profileEnv }, signed, profiling));
    const [baseServer, appServer] = servers;
    const dbCpu = await databaseCpuReader(db.url);
    // Windows alternate (baseline, app, baseline, app, ...) so a change in the machine's other
    // load falls on both alike; each server gets its warm-up before its first window.
    const windowSeconds = o.seconds / o.rounds;
    o.log(`ingest: ${o.rounds} round(s) of ${windowSeconds} s per server at ${o.connections} connections, ${o.warmup} s warm-up each`);
    for (let round = 0; round < o.rounds; round++) {
      for (const server of servers) {
        if (round === 0) server.warm.push(await load(server.port, o.warmup, o.connections, server.events));
        if (round === 0 && options.profileDir) server.child.kill('SIGUSR2');
        const cpuBefore = cpuSeconds(server.child.pid);
        const mainBefore = cpuSeconds(server.child.pid, server.child.pid);
        const dbBefore = await dbCpu.read();
        const machineBefore = machineCpuTimes();
        const w = await load(server.port, windowSeconds, o.connections, server.events);
        server.windows.push(w);
        const cpuAfter = cpuSeconds(server.child.pid);
        const mainAfter = cpuSeconds(server.child.pid, server.child.pid);
        const dbAfter = await dbCpu.read();
        const machineAfter = machineCpuTimes();
        if (cpuBefore !== undefined && cpuAfter !== undefined) server.cpu.push(cpuAfter - cpuBefore);
        if (mainBefore !== undefined && mainAfter !== undefined) server.mainCpu.push(mainAfter - mainBefore);
        if (dbBefore !== undefined && dbAfter !== undefined) server.dbCpu.push(dbAfter - dbBefore);
        const perRequest = (seconds: number | undefined) => (seconds === undefined ? '?' : Math.round((1e6 * seconds) / w.requests.total));
        const busy =
          machineBefore && machineAfter
            ? `${Math.round(100 - (100 * (machineAfter.idle - machineBefore.idle)) / (machineAfter.total - machineBefore.total))}%`
            : '?';
        o.log(
          `  ${server.name} round ${round + 1}: ${Math.round(rate(w))} req/s, p99 ${w.latency.p99} ms; CPU per request: server ${perRequest(server.cpu[round])} µs (main thread ${perRequest(server.mainCpu[round])}), ` +
            `database ${perRequest(server.dbCpu[round])} µs; machine busy ${busy}`,
        );
      }
    }
    if (options.profileDir) {
      for (const server of servers) server.child.kill('SIGUSR2');
      await new Promise((r) => setTimeout(r, 2000)); // the profiles are written
      o.log(
        `CPU profiles of the measured windows (baseline pid ${baseServer.child.pid}, app pid ${appServer.child.pid}) in ${options.profileDir}`,
      );
    }
    // ROLE=all: the workers must keep up, not leave a backlog the windows did not pay for. The
    // events still unprocessed when the last window ends, and how long the app takes to finish them.
    const backlog = await workerBacklog(db.url);
    if (backlog)
      o.log(`worker backlog at the end of the windows: ${backlog.left} event(s), drained in ${backlog.drainSeconds.toFixed(1)} s`);
    await dbCpu.close();
    await Promise.all(servers.map((s) => stopServer(s.child)));

    // What the app committed: one event row and one queued job per 202.
    const client = new pg.Client({ connectionString: db.url });
    await client.connect();
    const stored = (await client.query(`SELECT count(*)::int AS n FROM inbound_events`)).rows[0].n as number;
    // A job names one event ({id}) or the catalog events of one ingest statement ({ids}).
    const { rows: jobRows } = await client.query(
      `SELECT count(DISTINCT j.id)::int AS job_rows, count(e.id)::int AS n
         FROM pgboss.job j CROSS JOIN LATERAL jsonb_array_elements_text(coalesce(j.data->'ids', jsonb_build_array(j.data->'id'))) AS e(id)
        WHERE j.name = 'inbound-event'`,
    );
    const jobs = jobRows[0].n as number;
    const jobRowCount = jobRows[0].job_rows as number;
    await client.end();
    const accepted = [...appServer.warm, ...appServer.windows].reduce((n, r) => n + count(r, 202), 0);
    // Requests still in flight when a window closes are committed but not counted by autocannon.
    if (jobs !== stored || stored < accepted || stored > accepted + (o.rounds + 1) * o.connections) {
      throw new Error(`app answered 202 ${accepted} times but stored ${stored} events and jobs for ${jobs}`);
    }

    const b = summary(baseServer.windows);
    const a = summary(appServer.windows);
    const ratio = a.rps / b.rps;
    // CPU per request (µs) over all measured windows: the work each request costs the server
    // process, and the database (both servers share one PostgreSQL, loaded by one at a time).
    const perRequest = (seconds: number[], s: Server, total: number) =>
      seconds.length === s.windows.length && total ? (1e6 * seconds.reduce((x, y) => x + y, 0)) / total : undefined;
    const bCpu = perRequest(baseServer.cpu, baseServer, b.total);
    const aCpu = perRequest(appServer.cpu, appServer, a.total);
    const bMain = perRequest(baseServer.mainCpu, baseServer, b.total);
    const aMain = perRequest(appServer.mainCpu, appServer, a.total);
    const bDb = perRequest(baseServer.dbCpu, baseServer, b.total);
    const aDb = perRequest(appServer.dbCpu, appServer, a.total);
    const cpuRows: BenchResult[] =
      bCpu !== undefined && aCpu !== undefined
        ? [
            { name: 'ingest baseline server CPU per request', value: bCpu, unit: 'µs', note: 'user + system, measured windows' },
            { name: 'ingest app server CPU per request', value: aCpu, unit: 'µs', note: 'user + system, measured windows' },
            {
              name: 'ratio: ingest baseline / app CPU per request',
              value: bCpu / aCpu,
              unit: 'x',
              note: 'what req/s would show with the CPU alone as the limit',
            },
            ...(bMain !== undefined && aMain !== undefined
              ? [
                  { name: 'ingest baseline HTTP-thread CPU per request', value: bMain, unit: 'µs', note: 'the main thread alone' },
                  {
                    name: 'ingest app HTTP-thread CPU per request',
                    value: aMain,
                    unit: 'µs',
                    note: 'the main thread alone (the workers have a thread of their own)',
                  },
                ]
              : []),
          ]
        : [];
    const dbRows: BenchResult[] =
      bDb !== undefined && aDb !== undefined
        ? [
            {
              name: 'ingest baseline database CPU per request',
              value: bDb,
              unit: 'µs',
              note: "the bench database's backends, measured windows",
            },
            {
              name: 'ingest app database CPU per request',
              value: aDb,
              unit: 'µs',
              note: "the bench database's backends, measured windows",
            },
          ]
        : [];
    return [
      {
        name: 'ingest baseline (Express + HMAC + 1 INSERT), req/s',
        value: b.rps,
        unit: 'req/s',
        note: `${b.total} requests in ${b.seconds.toFixed(1)} s; ${b.statuses}; errors ${b.errors}`,
      },
      { name: 'ingest baseline p99 latency', value: b.p99, unit: 'ms', note: 'worst window' },
      {
        name: 'ingest app (POST /api/v1/webhooks/ehr), req/s',
        value: a.rps,
        unit: 'req/s',
        note: `${a.total} requests in ${a.seconds.toFixed(1)} s; ${a.statuses}; errors ${a.errors}; ${stored} events stored, named by ${jobRowCount} job rows (warm-up included); ROLE=${appEnv.ROLE}, LOG_LEVEL=${appEnv.LOG_LEVEL}`,
      },
      { name: 'ingest app p99 latency', value: a.p99, unit: 'ms', note: 'worst window' },
      { name: 'ingest app non-2xx responses and errors', value: a.non2xx + a.errors, unit: 'count', target: { op: '<=', value: 0 } },
      ...(backlog
        ? [
            {
              name: 'ingest app worker backlog after the windows',
              value: backlog.left,
              unit: 'events',
              note: `drained in ${backlog.drainSeconds.toFixed(1)} s (ROLE=all: the workers in the same process apply every event)`,
            },
          ]
        : []),
      {
        name: 'ratio: ingest app / baseline req/s',
        value: ratio,
        unit: 'x',
        target: { op: '>=', value: 1.0 },
        note: `per window: ${appServer.windows.map((w, i) => (rate(w) / rate(baseServer.windows[i])).toFixed(2)).join(', ')}`,
      },
      { name: 'ratio: ingest app / baseline p99', value: a.p99 / b.p99, unit: 'x' },
      ...cpuRows,
      ...dbRows,
    ];
  } finally {
    await Promise.all(servers.map((s) => stopServer(s.child)));
    await db.drop();
  }
}

if (isMain(import.meta.url)) {
  const { values } = parseArgs({
    options: {
      seconds: { type: 'string', default: '10' },
      warmup: { type: 'string', default: '10' },
      connections: { type: 'string', default: '50' },
      rounds: { type: 'string', default: '5' },
      'log-level': { type: 'string', default: 'info' },
      role: { type: 'string', default: 'all' },
      'cpu-prof': { type: 'boolean', default: false },
    },
  });
  await runStandalone((ctx) =>
    run({
      ...ctx,
      seconds: Number(values.seconds),
      warmup: Number(values.warmup),
      connections: Number(values.connections),
      rounds: Number(values.rounds),
      logLevel: values['log-level'],
      role: values.role === 'api' ? 'api' : 'all',
      profileDir: values['cpu-prof'] ? '/tmp/clinigate-ingest-prof' : undefined,
    }),
  );
}
