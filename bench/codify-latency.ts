/**
 * Codify latency with the full FY2026 ICD-10-CM table imported: a 50 KB note (real CodiEsp
 * case reports joined, from ../shared/data), p50/p95 of the engine alone and of the HTTP round
 * trip (POST /v1/codify -> job -> NOTIFY -> answer), and process RSS. Targets: p50 <= 100 ms,
 * RSS < 300 MB. Runs on a fresh database of DATABASE_URL's server (dropped at the end), or on an
 * embedded PostgreSQL when DATABASE_URL is unset.
 *
 *   tsx bench/codify-latency.ts [--runs 20] [--model balanced]
 */
import { Metrics } from '../src/metrics/metrics.js';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
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
import type { CodifyModel } from '../src/engine/engine.js';
import { startBoss } from '../src/jobs/boss.js';
import { startCodifyWorker } from '../src/jobs/codify-worker.js';
import { createLogger } from '../src/lib/logger.js';
import { openCodeTableStore } from '../src/terminology/code-table-store.js';
import { importIcd10 } from '../src/terminology/icd10-import.js';

const DATA = new URL('../../shared/data/', import.meta.url).pathname;
const CODES_FILE = process.env.ICD10CM_FILE ?? join(DATA, 'icd10cm/icd10cm-codes-2026.txt');
const CATEGORIES_FILE = join(DATA, 'icd10cm/icd10cm-categories-April-1-2026.csv');
const NOTES_DIR = join(DATA, 'codiesp/train/text_files_en');
const NOTE_BYTES = 51_200;
const SECRET = 'bench-secret-that-is-long-enough-for-hs256';

const { values: args } = parseArgs({ options: { runs: { type: 'string', default: '20' }, model: { type: 'string', default: 'balanced' } } });
const RUNS = Number(args.runs);
const MODEL = args.model as CodifyModel;

function note50k(): string {
  let text = '';
  if (existsSync(NOTES_DIR)) {
    for (const f of readdirSync(NOTES_DIR).sort()) {
      text += readFileSync(join(NOTES_DIR, f), 'utf8') + '\n';
      if (Buffer.byteLength(text) >= NOTE_BYTES) break;
    }
  } else {
    text = 'Patient with hypertension and type 2 diabetes presents with cough and fever. Denies chest pain.\n'.repeat(600);
  }
  let out = text.slice(0, NOTE_BYTES);
  while (Buffer.byteLength(out) > NOTE_BYTES) out = out.slice(0, -1);
  return out;
}

const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)];
};
const mb = (n: number) => `${(n / 1024 / 1024).toFixed(0)} MB`;
const ms = (n: number) => `${n.toFixed(0)} ms`;

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

  const rssStart = process.memoryUsage().rss;
  const config = parseConfig({ NODE_ENV: 'test', DATABASE_URL: url, JWT_SECRET: SECRET, CODIFY_RATE_LIMIT: '1000000', LOG_LEVEL: 'error' });
  const logger = createLogger('error', { silent: true });
  const pool = createPool(url);
  let boss: Awaited<ReturnType<typeof startBoss>> | undefined;
  let notifications: NotificationHub | undefined;
  let server: ReturnType<ReturnType<typeof createApp>['listen']> | undefined;
  try {
    await migrate(pool);
    const imported = await importIcd10(pool, { codesFile: CODES_FILE, categoriesFile: existsSync(CATEGORIES_FILE) ? CATEGORIES_FILE : undefined });
    const loadStarted = performance.now();
    const store = await openCodeTableStore(pool, logger);
    const loadMs = performance.now() - loadStarted;
    boss = await startBoss(url, logger, { supervise: false });
    notifications = new NotificationHub(url, ALL_CHANNELS, logger);
    await notifications.start();
    const engine = createEngine(config, { codeTable: () => store.current(), logger });
    const deps: AppDeps = { config, pool, boss, logger, engine, notifications, metrics: new Metrics(pool) };
    await startCodifyWorker(deps);
    const app = createApp(deps);
    server = await new Promise((resolve) => {
      const s = app.listen(0, '127.0.0.1', () => resolve(s));
    });
    const port = (server!.address() as AddressInfo).port;
    const token = await new SignJWT({ sub: 'bench-user', group_id: 'bench-group' })
      .setProtectedHeader({ alg: 'HS256' })
      .setIssuedAt()
      .setExpirationTime('1h')
      .sign(new TextEncoder().encode(SECRET));
    const note = note50k();

    // Warm-up: the title index, the lexicon and the NLP model load on first use.
    const warm = await engine.codify({ text: note, model: MODEL });
    const engineMs: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      const t0 = performance.now();
      await engine.codify({ text: note, model: MODEL });
      engineMs.push(performance.now() - t0);
    }
    let rssPeak = process.memoryUsage().rss;
    const roundTrips = async (text: string): Promise<number[]> => {
      const out: number[] = [];
      for (let i = 0; i < RUNS; i++) {
        const t0 = performance.now();
        const res = await fetch(`http://127.0.0.1:${port}/v1/codify`, {
          method: 'POST',
          headers: { authorization: `Bearer ${token}`, 'x-doctor': 'bench-doctor', 'content-type': 'application/json' },
          body: JSON.stringify({ medical_note: text, model: MODEL }),
        });
        await res.json();
        if (res.status !== 200) throw new Error(`POST /v1/codify answered ${res.status}`);
        out.push(performance.now() - t0);
        rssPeak = Math.max(rssPeak, process.memoryUsage().rss);
      }
      return out;
    };
    const httpMs = await roundTrips(note);
    // A one-line note: what the service adds around the engine (job, NOTIFY, verification).
    const shortMs = await roundTrips('Essential hypertension.');
    const lines = [
      `codify latency: ${Buffer.byteLength(note)} byte note, model ${MODEL}, ${RUNS} runs each`,
      `table: ${store.current().size} codes (${imported.codeCount} billable + ${imported.headerCount} headers), loaded from PostgreSQL in ${ms(loadMs)}`,
      `answer: ${warm.final_code_assessments.length} final, ${warm.discarded_code_assessments.length} discarded`,
      `engine:     p50 ${ms(pct(engineMs, 50))}  p95 ${ms(pct(engineMs, 95))}  (target p50 <= 100 ms)`,
      `HTTP round: p50 ${ms(pct(httpMs, 50))}  p95 ${ms(pct(httpMs, 95))}`,
      `HTTP round, one-line note: p50 ${ms(pct(shortMs, 50))}  p95 ${ms(pct(shortMs, 95))}`,
      `RSS: start ${mb(rssStart)}, after load ${mb(process.memoryUsage().rss)}, peak ${mb(rssPeak)} (target < 300 MB)`,
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
