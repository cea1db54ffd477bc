/**
 * Inbound ingest (issue #6): signed `encounter.transcript` events accepted by the real app
 * (POST /api/v1/webhooks/ehr: signature verified, event stored, job enqueued, committed, 202)
 * against a bare Express 5 route that verifies the same HMAC and inserts one row
 * (bench/servers/baseline-server.ts). Each server runs in its own child process (`node --import
 * tsx`), the app as in production with ROLE=api (no workers: only ingest is measured). autocannon
 * runs here, 50 connections, a short warm-up, then the measured window; every request carries a
 * unique event id and a correct signature. Goal: app req/s >= 0.8x baseline req/s.
 *
 *   tsx bench/ingest.ts [--seconds 10] [--rounds 5] [--warmup 3] [--connections 50] [--log-level info] [--cpu-prof]
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { createHmac, randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
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
const SECRET = 'bench-ehr-webhook-secret';
const PATH = '/api/v1/webhooks/ehr';

export interface IngestOptions extends BenchContext {
  seconds?: number;
  warmup?: number;
  connections?: number;
  /** Alternating measured windows per server (seconds split between them). */
  rounds?: number;
  /** The app's LOG_LEVEL (production default: info, one access-log line per request). */
  logLevel?: string;
  /** Extra node flags for the app server (e.g. --cpu-prof). */
  appNodeArgs?: string[];
}

interface Signed {
  body: string;
  signature: string;
}

/** A short encounter transcript under a unique event id, signed over its exact bytes. */
function signedEvent(prefix: string, n: number): Signed {
  const body = JSON.stringify({
    id: `${prefix}-${n}`,
    type: 'encounter.transcript',
    occurred_at: new Date().toISOString(),
    data: {
      group_id: 'bench-group',
      doctor_id: 'bench-doctor',
      transcript: '[doctor] What brings you in today?\n[patient] A dry cough for three days, no fever.',
      duration_seconds: 95,
    },
  });
  return { body, signature: `sha256=${createHmac('sha256', SECRET).update(body).digest('hex')}` };
}

/** Bodies precomputed (HMAC off the load generator's hot path); past the pool, made on the fly. */
function eventSource(prefix: string, size: number): () => Signed {
  const pool = Array.from({ length: size }, (_, i) => signedEvent(prefix, i));
  let next = 0;
  return () => (next < pool.length ? pool[next++] : signedEvent(prefix, next++));
}

async function load(port: number, seconds: number, connections: number, events: () => Signed): Promise<Result> {
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

function startServer(name: string, script: string, env: NodeJS.ProcessEnv, nodeArgs: string[] = []): { child: ChildProcess; stderr: () => string } {
  const child = spawn(process.execPath, [...nodeArgs, '--import', 'tsx', script], {
    cwd: ROOT,
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

async function stopServer(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 20_000);
  await exited;
  clearTimeout(timer);
}

interface Server {
  name: string;
  port: number;
  child: ChildProcess;
  events: () => Signed;
  warm: Result[];
  windows: Result[];
  /** CPU seconds (user + system) the server process spent in each measured window. */
  cpu: number[];
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
 */
function cpuSeconds(pid: number | undefined): number | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / TICKS;
  } catch {
    return undefined;
  }
}

async function startMeasured(name: string, script: string, env: NodeJS.ProcessEnv, signedPerServer: number, nodeArgs: string[] = []): Promise<Server> {
  const port = await freePort();
  const { child, stderr } = startServer(name, script, { ...env, PORT: String(port) }, nodeArgs);
  try {
    await waitForHttp(port, child, stderr);
  } catch (err) {
    await stopServer(child);
    throw err;
  }
  const events = eventSource(`${name}-${randomBytes(4).toString('hex')}`, signedPerServer);
  return { name, port, child, events, warm: [], windows: [], cpu: [] };
}

const count = (r: Result, status: number) => Number(r.statusCodeStats?.[String(status)]?.count ?? 0);
const rate = (r: Result) => r.requests.total / r.duration;

/** Windows of one server together: requests over seconds, the worst p99, status counts. */
function summary(windows: Result[]) {
  const total = windows.reduce((n, r) => n + r.requests.total, 0);
  const seconds = windows.reduce((n, r) => n + r.duration, 0);
  const codes = new Map<string, number>();
  for (const r of windows) for (const [code, c] of Object.entries(r.statusCodeStats ?? {})) codes.set(code, (codes.get(code) ?? 0) + Number(c.count));
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

export async function run(options: IngestOptions): Promise<BenchResult[]> {
  const o = { ...options, seconds: options.seconds ?? 10, warmup: options.warmup ?? 3, connections: options.connections ?? 50, rounds: options.rounds ?? 5 };
  const db = await createBenchDatabase(options.adminUrl, 'ingest');
  const servers: Server[] = [];
  try {
    const appEnv = {
      NODE_ENV: 'production',
      ROLE: 'api',
      DATABASE_URL: db.url,
      LOG_LEVEL: options.logLevel ?? 'info',
      JWT_SECRET: BENCH_JWT_SECRET,
      VOICE_API_KEYS: 'bench-api-key',
      EHR_WEBHOOK_SECRET: SECRET,
      VOICE_WEBHOOK_SECRET: 'bench-voice-webhook-secret',
    };
    // Sized for ~6,000 req/s over warm-up and windows; beyond that bodies are signed on the fly.
    const signed = Math.min(120_000, 6_000 * (o.seconds + o.warmup));
    servers.push(await startMeasured('baseline', 'bench/servers/baseline-server.ts', { DATABASE_URL: db.url, SECRET }, signed));
    servers.push(await startMeasured('app', 'src/main.ts', appEnv, signed, options.appNodeArgs));
    const [baseServer, appServer] = servers;
    // Windows alternate (baseline, app, baseline, app, ...) so a change in the machine's other
    // load falls on both alike; each server gets its warm-up before its first window.
    const windowSeconds = o.seconds / o.rounds;
    o.log(`ingest: ${o.rounds} round(s) of ${windowSeconds} s per server at ${o.connections} connections, ${o.warmup} s warm-up each`);
    for (let round = 0; round < o.rounds; round++) {
      for (const server of servers) {
        if (round === 0) server.warm.push(await load(server.port, o.warmup, o.connections, server.events));
        const cpuBefore = cpuSeconds(server.child.pid);
        server.windows.push(await load(server.port, windowSeconds, o.connections, server.events));
        const cpuAfter = cpuSeconds(server.child.pid);
        if (cpuBefore !== undefined && cpuAfter !== undefined) server.cpu.push(cpuAfter - cpuBefore);
        o.log(`  ${server.name} round ${round + 1}: ${Math.round(rate(server.windows[round]))} req/s`);
      }
    }
    await Promise.all(servers.map((s) => stopServer(s.child)));

    // What the app committed: one event row and one queued job per 202.
    const client = new pg.Client({ connectionString: db.url });
    await client.connect();
    const stored = (await client.query(`SELECT count(*)::int AS n FROM inbound_events`)).rows[0].n as number;
    const jobs = (await client.query(`SELECT count(*)::int AS n FROM pgboss.job WHERE name = 'inbound-event'`)).rows[0].n as number;
    await client.end();
    const accepted = [...appServer.warm, ...appServer.windows].reduce((n, r) => n + count(r, 202), 0);
    // Requests still in flight when a window closes are committed but not counted by autocannon.
    if (jobs !== stored || stored < accepted || stored > accepted + (o.rounds + 1) * o.connections) {
      throw new Error(`app answered 202 ${accepted} times but stored ${stored} events and ${jobs} jobs`);
    }

    const b = summary(baseServer.windows);
    const a = summary(appServer.windows);
    const ratio = a.rps / b.rps;
    // Server CPU per request (µs), over all measured windows: the work each request costs.
    const cpuPerRequest = (s: Server, total: number) => (s.cpu.length === s.windows.length && total ? (1e6 * s.cpu.reduce((x, y) => x + y, 0)) / total : undefined);
    const bCpu = cpuPerRequest(baseServer, b.total);
    const aCpu = cpuPerRequest(appServer, a.total);
    const cpuRows: BenchResult[] =
      bCpu !== undefined && aCpu !== undefined
        ? [
            { name: 'ingest baseline server CPU per request', value: bCpu, unit: 'µs', note: 'user + system, measured windows' },
            { name: 'ingest app server CPU per request', value: aCpu, unit: 'µs', note: 'user + system, measured windows' },
            { name: 'ratio: ingest baseline / app CPU per request', value: bCpu / aCpu, unit: 'x', note: 'what req/s would show with the CPU alone as the limit' },
          ]
        : [];
    return [
      { name: 'ingest baseline (Express + HMAC + 1 INSERT), req/s', value: b.rps, unit: 'req/s', note: `${b.total} requests in ${b.seconds.toFixed(1)} s; ${b.statuses}; errors ${b.errors}` },
      { name: 'ingest baseline p99 latency', value: b.p99, unit: 'ms', note: 'worst window' },
      { name: 'ingest app (POST /api/v1/webhooks/ehr), req/s', value: a.rps, unit: 'req/s', note: `${a.total} requests in ${a.seconds.toFixed(1)} s; ${a.statuses}; errors ${a.errors}; ${stored} events + ${jobs} jobs stored (warm-up included); ROLE=api, LOG_LEVEL=${appEnv.LOG_LEVEL}` },
      { name: 'ingest app p99 latency', value: a.p99, unit: 'ms', note: 'worst window' },
      { name: 'ingest app non-2xx responses and errors', value: a.non2xx + a.errors, unit: 'count', target: { op: '<=', value: 0 } },
      { name: 'ratio: ingest app / baseline req/s', value: ratio, unit: 'x', target: { op: '>=', value: 0.8 }, note: `per window: ${appServer.windows.map((w, i) => (rate(w) / rate(baseServer.windows[i])).toFixed(2)).join(', ')}` },
      { name: 'ratio: ingest app / baseline p99', value: a.p99 / b.p99, unit: 'x' },
      ...cpuRows,
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
      warmup: { type: 'string', default: '3' },
      connections: { type: 'string', default: '50' },
      rounds: { type: 'string', default: '5' },
      'log-level': { type: 'string', default: 'info' },
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
      appNodeArgs: values['cpu-prof'] ? ['--cpu-prof', '--cpu-prof-dir=/tmp/clinigate-ingest-prof'] : [],
    }),
  );
}
