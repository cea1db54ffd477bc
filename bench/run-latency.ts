/**
 * Run latency: (1) a chat run from POST .../runs to the answer of .../join, over HTTP on
 * 127.0.0.1 with the run worker in the same process (job -> NOTIFY -> worker -> NOTIFY -> join);
 * (2) the local engine's extraction of a ~3,000-word visit transcript (ACI-Bench dialogues from
 * ../shared/data, joined). Targets: median <= 50 ms and <= 200 ms. Runs on a fresh database of
 * DATABASE_URL's server (dropped at the end), or on an embedded PostgreSQL when it is unset.
 *
 *   tsx bench/run-latency.ts [--runs 50] [--extractions 20]
 */
import { Metrics } from '../src/metrics/metrics.js';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { SignJWT } from 'jose';
import pg from 'pg';
import { createApp } from '../src/app.js';
import type { AppDeps } from '../src/app-deps.js';
import { parseConfig } from '../src/config.js';
import { startEmbeddedPostgres } from '../src/db/embedded.js';
import { migrate } from '../src/db/migrate.js';
import { ALL_CHANNELS, NotificationHub } from '../src/db/notifications.js';
import { createPool } from '../src/db/pool.js';
import { createEngine } from '../src/engine/create-engine.js';
import { startBoss } from '../src/jobs/boss.js';
import { startRunWorker } from '../src/jobs/run-worker.js';
import { createLogger } from '../src/lib/logger.js';
import { CodeTable } from '../src/terminology/code-table.js';
import { starterRows } from '../src/terminology/starter-catalog.js';
import { parseCsvRecords } from '../scripts/lib/csv.js';

const ACI_TRAIN = new URL('../../shared/data/aci-bench/train.csv', import.meta.url).pathname;
const SECRET = 'bench-secret-that-is-long-enough-for-hs256';
const TARGET_WORDS = 3_000;

const { values: args } = parseArgs({ options: { runs: { type: 'string', default: '50' }, extractions: { type: 'string', default: '20' } } });
const RUNS = Number(args.runs);
const EXTRACTIONS = Number(args.extractions);

const words = (s: string) => s.split(/\s+/).filter(Boolean).length;

/** A visit of about 3,000 words: the longest ACI-Bench dialogue, continued with the next longest. */
function longTranscript(): string {
  const fallback = ['[doctor] What brings you in today?', '[patient] I have had chest tightness and a cough for a week.'];
  const dialogues = existsSync(ACI_TRAIN)
    ? parseCsvRecords(readFileSync(ACI_TRAIN, 'utf8')).map((r) => r.dialogue).sort((a, b) => words(b) - words(a))
    : [fallback.join('\n')];
  const lines: string[] = [];
  let count = 0;
  for (let i = 0; count < TARGET_WORDS; i++) {
    for (const line of dialogues[i % dialogues.length].split('\n')) {
      if (count >= TARGET_WORDS) break;
      lines.push(line);
      count += words(line);
    }
  }
  return lines.join('\n');
}

const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)];
};
const ms = (n: number) => `${n.toFixed(1)} ms`;

async function main(): Promise<void> {
  let adminUrl = process.env.DATABASE_URL;
  let embeddedDir: string | undefined;
  let stopEmbedded: (() => Promise<void>) | undefined;
  if (!adminUrl) {
    embeddedDir = mkdtempSync(join(tmpdir(), 'clinigate-bench-pg-'));
    const embedded = await startEmbeddedPostgres(embeddedDir, 54_400 + Math.floor(Math.random() * 500));
    adminUrl = embedded.connectionString;
    stopEmbedded = () => embedded.stop();
  }
  const name = `clinigate_bench_${Date.now()}_${randomBytes(3).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const u = new URL(adminUrl);
  u.pathname = `/${name}`;
  const url = u.toString();

  const config = parseConfig({ NODE_ENV: 'test', DATABASE_URL: url, JWT_SECRET: SECRET, LOG_LEVEL: 'error' });
  const logger = createLogger('error', { silent: true });
  const pool = createPool(url);
  let boss: Awaited<ReturnType<typeof startBoss>> | undefined;
  let notifications: NotificationHub | undefined;
  let server: ReturnType<ReturnType<typeof createApp>['listen']> | undefined;
  try {
    await migrate(pool);
    boss = await startBoss(url, logger, { supervise: false });
    notifications = new NotificationHub(url, ALL_CHANNELS, logger);
    await notifications.start();
    const table = new CodeTable(starterRows());
    const engine = createEngine(config, { codeTable: () => table, logger });
    const deps: AppDeps = { config, pool, boss, logger, engine, notifications, metrics: new Metrics(pool) };
    await startRunWorker(deps);
    const app = createApp(deps);
    server = await new Promise((resolve) => {
      const s = app.listen(0, '127.0.0.1', () => resolve(s));
    });
    const base = `http://127.0.0.1:${(server!.address() as AddressInfo).port}/v1/agent/threads`;
    const token = await new SignJWT({ sub: 'bench-user', group_id: 'bench-group' })
      .setProtectedHeader({ alg: 'HS256' })
      .setIssuedAt()
      .setExpirationTime('1h')
      .sign(new TextEncoder().encode(SECRET));
    const headers = { authorization: `Bearer ${token}`, 'x-doctor': 'bench-doctor', 'content-type': 'application/json' };
    const call = async (method: string, path: string, body?: unknown) => {
      const res = await fetch(`${base}${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
      const json = (await res.json()) as Record<string, unknown>;
      if (!res.ok) throw new Error(`${method} ${path} answered ${res.status}`);
      return json;
    };

    // One chat run on its own thread: POST .../runs -> GET .../join, timed together.
    const parts = { create: [] as number[], queued: [] as number[], executing: [] as number[] };
    const chatRun = async (): Promise<number> => {
      const { thread_id: threadId } = await call('POST', '', {});
      const t0 = performance.now();
      const run = await call('POST', `/${threadId}/runs`, {
        input: { messages: [{ role: 'user', content: 'What can you do?' }] },
        config: { configurable: { thread_id: threadId } },
      });
      const created = performance.now() - t0;
      const joined = await call('GET', `/${threadId}/runs/${run.run_id}/join?timeout=30`);
      const elapsed = performance.now() - t0;
      if (joined.status !== 'completed') throw new Error(`run ended ${String(joined.status)}`);
      // Where the time went, from the run's own timestamps (database clock, ms precision).
      parts.create.push(created);
      parts.queued.push(Date.parse(String(joined.started_at)) - Date.parse(String(joined.created_at)));
      parts.executing.push(Date.parse(String(joined.ended_at)) - Date.parse(String(joined.started_at)));
      return elapsed;
    };
    for (let i = 0; i < 5; i++) await chatRun(); // warm-up: connections, JIT, the queue's plan
    for (const list of Object.values(parts)) list.length = 0;
    const runMs: number[] = [];
    for (let i = 0; i < RUNS; i++) runMs.push(await chatRun());

    const transcript = longTranscript();
    await engine.extractNote(transcript, 'SOAP'); // warm-up: the NLP model loads on first use
    const extractMs: number[] = [];
    for (let i = 0; i < EXTRACTIONS; i++) {
      const t0 = performance.now();
      await engine.extractNote(transcript, 'SOAP');
      extractMs.push(performance.now() - t0);
    }

    const row = (what: string, n: number, xs: number[], target: number) =>
      `| ${what.padEnd(44)} | ${String(n).padStart(4)} | ${ms(pct(xs, 50)).padStart(9)} | ${ms(pct(xs, 95)).padStart(9)} | ${`<= ${target} ms`.padStart(10)} | ${pct(xs, 50) <= target ? 'met ' : 'MISS'} |`;
    const lines = [
      `run latency (engine ${engine.name}, ${words(transcript)}-word transcript for extraction)`,
      `| ${'measure'.padEnd(44)} | ${'n'.padStart(4)} | ${'median'.padStart(9)} | ${'p95'.padStart(9)} | ${'target'.padStart(10)} |      |`,
      `|${'-'.repeat(46)}|${'-'.repeat(6)}|${'-'.repeat(11)}|${'-'.repeat(11)}|${'-'.repeat(12)}|------|`,
      row('chat run: create -> join answered (HTTP)', RUNS, runMs, 50),
      row('extraction engine, ~3,000-word transcript', EXTRACTIONS, extractMs, 200),
      '',
      'where a chat run\'s time goes (median / p95):',
      `  POST .../runs answered (run + job committed): ${ms(pct(parts.create, 50))} / ${ms(pct(parts.create, 95))}`,
      `  created -> started (queue, NOTIFY, fetch):     ${ms(pct(parts.queued, 50))} / ${ms(pct(parts.queued, 95))}`,
      `  started -> ended (engine, ending transaction): ${ms(pct(parts.executing, 50))} / ${ms(pct(parts.executing, 95))}`,
    ];
    process.stdout.write(lines.join('\n') + '\n');
  } finally {
    server?.close();
    await boss?.stop({ graceful: false }).catch(() => {});
    await notifications?.stop();
    await pool.end();
    const c = new pg.Client({ connectionString: adminUrl });
    await c.connect();
    await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`).catch(() => {});
    await c.end();
    await stopEmbedded?.();
    if (embeddedDir) rmSync(embeddedDir, { recursive: true, force: true });
  }
}

main().catch((err: Error) => {
  process.stderr.write(`bench failed: ${err.stack ?? err.message}\n`);
  process.exit(1);
});
