/**
 * Codify latency with the full FY2026 ICD-10-CM table imported: a 50 KB note (real CodiEsp
 * case reports joined, from ../shared/data), p50/p95 of the engine alone and of the HTTP round
 * trip (POST /v1/codify -> job -> NOTIFY -> answer), and process RSS. Targets: p50 <= 50 ms, RSS <
 * 300 MB. Runs on a fresh database (dropped at the end) of DATABASE_URL's server, or of an
 * embedded PostgreSQL when it is unset.
 *
 *   tsx bench/codify-latency.ts [--runs 20] [--model balanced]
 */
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { createApp } from '../src/app.js';
import type { CodifyModel } from '../src/engine/engine.js';
import { startJobLoops } from '../src/jobs/define-job.js';
import { codifyJob } from '../src/modules/codify/codify.job.js';
import { createPool } from '../src/db/pool.js';
import { migrate } from '../src/db/migrate.js';
import { importIcd10 } from '../src/terminology/icd10-import.js';
import { createBenchDatabase } from './lib/database.js';
import { freePort } from '../src/lib/free-port.js';
import { BENCH_JWT_SECRET, benchHeaders, openBenchRuntime } from './lib/runtime.js';
import { isMain, runStandalone } from './lib/standalone.js';
import { pct } from './lib/stats.js';
import type { BenchContext, BenchResult } from './lib/types.js';

const DATA = new URL('../../shared/data/', import.meta.url).pathname;
const CODES_FILE = process.env.ICD10CM_FILE ?? join(DATA, 'icd10cm/icd10cm-codes-2026.txt');
const CATEGORIES_FILE = join(DATA, 'icd10cm/icd10cm-categories-April-1-2026.csv');
const NOTES_DIR = join(DATA, 'codiesp/train/text_files_en');
const NOTE_BYTES = 51_200;

export interface CodifyLatencyOptions extends BenchContext {
  runs?: number;
  model?: CodifyModel;
}

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

const MB = 1024 * 1024;
const ms0 = (n: number) => `${n.toFixed(0)} ms`;

export async function run(options: CodifyLatencyOptions): Promise<BenchResult[]> {
  const runs = options.runs ?? 20;
  const model = options.model ?? 'balanced';
  if (!existsSync(CODES_FILE)) throw new Error(`ICD-10-CM codes file not found: ${CODES_FILE} (set ICD10CM_FILE)`);
  const db = await createBenchDatabase(options.adminUrl, 'codify');
  const importPool = createPool(db.url, 4);
  let imported;
  try {
    await migrate(importPool);
    options.log('importing the full ICD-10-CM table');
    imported = await importIcd10(importPool, {
      codesFile: CODES_FILE,
      categoriesFile: existsSync(CATEGORIES_FILE) ? CATEGORIES_FILE : undefined,
    });
  } finally {
    await importPool.end();
  }
  const rssStart = process.memoryUsage().rss;
  const openStarted = performance.now();
  const { runtime } = await openBenchRuntime(db.url, { CODIFY_RATE_LIMIT: '1000000' });
  const openMs = performance.now() - openStarted;
  const { deps, codeTables } = runtime;
  const server = createServer(createApp(deps).listener).listen(0, '127.0.0.1');
  try {
    await new Promise<void>((resolve) => server.once('listening', () => resolve()));
    await startJobLoops(deps, codifyJob);
    const port = (server.address() as AddressInfo).port;
    const headers = await benchHeaders();
    const note = note50k();

    options.log(`codify: ${Buffer.byteLength(note)}-byte note, 1 warm-up + ${runs} engine runs, ${runs} + ${runs} HTTP round trips`);
    // Warm-up: the title index, the lexicon and the NLP model load on first use.
    const warm = await deps.engine.codify({ text: note, model });
    const engineMs: number[] = [];
    for (let i = 0; i < runs; i++) {
      const t0 = performance.now();
      await deps.engine.codify({ text: note, model });
      engineMs.push(performance.now() - t0);
    }
    let rssPeak = process.memoryUsage().rss;
    const roundTrips = async (text: string): Promise<number[]> => {
      const out: number[] = [];
      for (let i = 0; i < runs; i++) {
        const t0 = performance.now();
        const res = await fetch(`http://127.0.0.1:${port}/v1/codify`, {
          method: 'POST',
          headers,
          body: JSON.stringify({ medical_note: text, model }),
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
    const tableNote = `${codeTables.current().size} codes (${imported.codeCount} billable + ${imported.headerCount} headers); runtime opened (table loaded) in ${ms0(openMs)}`;
    return [
      {
        name: 'codify 50 KB note, engine p50 (full FY2026 table)',
        value: pct(engineMs, 50),
        unit: 'ms',
        target: { op: '<=', value: 50 },
        note: `n=${runs}, p95 ${ms0(pct(engineMs, 95))}, model ${model}; ${warm.final_code_assessments.length} final codes; table ${tableNote}`,
      },
      {
        name: 'codify 50 KB note, HTTP round trip p50',
        value: pct(httpMs, 50),
        unit: 'ms',
        note: `n=${runs}, p95 ${ms0(pct(httpMs, 95))}`,
      },
      {
        name: 'codify one-line note, HTTP round trip p50',
        value: pct(shortMs, 50),
        unit: 'ms',
        note: `n=${runs}, p95 ${ms0(pct(shortMs, 95))} (the service's own overhead)`,
      },
      {
        name: 'bench process RSS, peak with the table loaded',
        value: rssPeak / MB,
        unit: 'MB',
        note: `this process also imported the table and runs tsx: ${Math.round(rssStart / MB)} MB before the runtime opened`,
      },
      await serviceRss(db.url, note, model, options),
    ];
  } finally {
    await new Promise<void>((resolve) => server.close(() => resolve()));
    await runtime.stop({ graceful: false });
    await db.drop();
  }
}

if (isMain(import.meta.url)) {
  const { values } = parseArgs({ options: { runs: { type: 'string', default: '20' }, model: { type: 'string', default: 'balanced' } } });
  await runStandalone((ctx) => run({ ...ctx, runs: Number(values.runs), model: values.model as CodifyModel }));
}

/**
 * The service's own peak RSS (VmHWM, worker threads included): the compiled build as `npm start`
 * runs it (ROLE=all, full table, engine in worker threads), after codifying the 50 KB note a few
 * times. The bench process's figure above also holds the import and tsx, which the service does not.
 */
async function serviceRss(databaseUrl: string, note: string, model: CodifyModel, options: BenchContext): Promise<BenchResult> {
  execFileSync(process.execPath, ['node_modules/typescript/bin/tsc', '-p', 'tsconfig.build.json'], { stdio: 'ignore' });
  const port = await freePort();
  const child = spawn(process.execPath, ['dist/main.js'], {
    stdio: ['ignore', 'ignore', 'pipe'],
    env: {
      PATH: process.env.PATH,
      NODE_ENV: 'production',
      PORT: String(port),
      DATABASE_URL: databaseUrl,
      LOG_LEVEL: 'error',
      JWT_SECRET: BENCH_JWT_SECRET,
      // Production refuses short keys and secrets: each at least 32 bytes.
      VOICE_API_KEYS: 'bench-api-key-'.padEnd(40, 'k'),
      OPERATOR_API_KEYS: `bench:${'bench-operator-key-'.padEnd(40, 'k')}`,
      EHR_WEBHOOK_SECRET: 'bench-ehr-webhook-secret-'.padEnd(40, 's'),
      VOICE_WEBHOOK_SECRET: 'bench-voice-webhook-secret-'.padEnd(40, 's'),
      CODIFY_RATE_LIMIT: '1000000',
      // Production requires a key for stored secrets; a fixed one for the bench's own database.
      SECRETS_ENCRYPTION_KEY: 'b'.repeat(64),
    },
  });
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => (stderr = (stderr + chunk.toString()).slice(-2000)));
  try {
    return await measure();
  } catch (err) {
    throw new Error(`${(err as Error).message}; the service said: ${stderr.trim() || '(nothing)'}`);
  } finally {
    child.kill('SIGTERM');
    await new Promise((r) => (child.exitCode !== null ? r(undefined) : child.once('exit', r)));
  }

  async function measure(): Promise<BenchResult> {
    const base = `http://127.0.0.1:${port}`;
    for (let i = 0; ; i++) {
      if (child.exitCode !== null) throw new Error(`the service exited (${child.exitCode}) before its health answered`);
      if (i > 600) throw new Error('the service did not answer its health check within 60 s');
      const ok = await fetch(`${base}/api/v1/health`).then(
        (r) => r.ok,
        () => false,
      );
      if (ok) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    const headers = await benchHeaders();
    const runs = 5;
    options.log(`codify: the compiled service codifies the 50 KB note ${runs} times (its peak RSS)`);
    for (let i = 0; i < runs; i++) {
      const res = await fetch(`${base}/v1/codify`, { method: 'POST', headers, body: JSON.stringify({ medical_note: note, model }) });
      await res.json();
      if (res.status !== 200) throw new Error(`the service answered POST /v1/codify ${res.status}`);
    }
    const status = readFileSync(`/proc/${child.pid}/status`, 'utf8');
    const peakKb = Number(/^VmHWM:\s+(\d+) kB/m.exec(status)?.[1]);
    return {
      name: 'service RSS, peak (compiled, ROLE=all, full table)',
      value: (peakKb * 1024) / MB,
      unit: 'MB',
      target: { op: '<', value: 300 },
      note: `node dist/main.js after ${runs} codifications of the 50 KB note: VmHWM of the process, engine worker threads included`,
    };
  }
}
