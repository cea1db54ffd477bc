/**
 * Codify latency with the full FY2026 ICD-10-CM table imported: a 50 KB note (real CodiEsp
 * case reports joined, from ../shared/data), p50/p95 of the engine alone and of the HTTP round
 * trip (POST /v1/codify -> job -> NOTIFY -> answer), and process RSS. Targets: p50 <= 50 ms, RSS <
 * 300 MB. Runs on a fresh database (dropped at the end) of DATABASE_URL's server, or of an
 * embedded PostgreSQL when it is unset.
 *
 * Then the service's RSS (serviceRss below): the compiled service through ingest, run joins and codify.
 *
 *   tsx bench/codify-latency.ts [--runs 20] [--model balanced] [--service-only] [--service-tables shipped,imported]
 *     [--service-roots .,/tmp/before] [--ingest-seconds 20] [--joins 50] [--service-node-args "--heapsnapshot-signal=SIGUSR2"]
 *     [--service-engine-threads 1,2] [--service-codify-concurrency 2]
 */
import { execFileSync, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { createApp } from '../src/app.js';
import type { CodifyModel } from '../src/engine/engine.js';
import { startJobLoops } from '../src/jobs/define-job.js';
import { codifyJob } from '../src/modules/codify/codify.job.js';
import { createPool } from '../src/db/pool.js';
import { migrate } from '../src/db/migrate.js';
import { importIcd10 } from '../src/terminology/icd10-import.js';
import { createBenchDatabase } from './lib/database.js';
import { eventSource, load, stopServer, workerBacklog } from './ingest.js';
import { freePort } from '../src/lib/free-port.js';
import { BENCH_JWT_SECRET, benchHeaders, openBenchRuntime } from './lib/runtime.js';
import { isMain, runStandalone } from './lib/standalone.js';
import { pct } from './lib/stats.js';
import type { BenchContext, BenchResult } from './lib/types.js';
import { note50k } from './lib/note-50k.js';

const DATA = new URL('../../shared/data/', import.meta.url).pathname;
const CODES_FILE = process.env.ICD10CM_FILE ?? join(DATA, 'icd10cm/icd10cm-codes-2026.txt');
const CATEGORIES_FILE = join(DATA, 'icd10cm/icd10cm-categories-April-1-2026.csv');

export interface CodifyLatencyOptions extends BenchContext, ServiceRssOptions {
  runs?: number;
  model?: CodifyModel;
  /** Only the service's RSS rows (not the in-process engine and HTTP figures). */
  serviceOnly?: boolean;
  /** The database's table for the service's RSS: the shipped release, the full table imported, or both (default). */
  tables?: ('shipped' | 'imported')[];
}

const ROOT = new URL('..', import.meta.url).pathname;

const MB = 1024 * 1024;
const ms0 = (n: number) => `${n.toFixed(0)} ms`;

export async function run(options: CodifyLatencyOptions): Promise<BenchResult[]> {
  const runs = options.runs ?? 20;
  const model = options.model ?? 'balanced';
  if (!existsSync(CODES_FILE)) throw new Error(`ICD-10-CM codes file not found: ${CODES_FILE} (set ICD10CM_FILE)`);
  const db = await createBenchDatabase(options.adminUrl, 'codify');
  const importPool = createPool(db.url, 4);
  let imported = { codeCount: 0, headerCount: 0 };
  try {
    await migrate(importPool);
    // The import is skipped only when nothing measured reads it (the service's RSS on the shipped release alone).
    if (!options.serviceOnly || (options.tables ?? ['imported']).includes('imported')) {
      options.log('importing the full ICD-10-CM table');
      imported = await importIcd10(importPool, {
        codesFile: CODES_FILE,
        categoriesFile: existsSync(CATEGORIES_FILE) ? CATEGORIES_FILE : undefined,
      });
    }
  } finally {
    await importPool.end();
  }
  const note = note50k();
  const serviceRows = async (): Promise<BenchResult[]> => {
    const rows: BenchResult[] = [];
    const roots = options.roots?.length ? options.roots : [ROOT];
    for (const table of options.tables ?? ['shipped', 'imported']) {
      for (const engineThreads of options.engineThreads ?? [undefined]) {
        for (const root of roots) {
          const label =
            [roots.length > 1 ? root : '', engineThreads === undefined ? '' : `ENGINE_THREADS=${engineThreads}`]
              .filter(Boolean)
              .join(', ') || undefined;
          const each = { ...options, root, label, engineThreads: engineThreads === undefined ? undefined : [engineThreads] };
          if (table === 'imported') rows.push(await serviceRss(db.url, table, note, model, each));
          else {
            // Nothing imported: the service migrates a fresh database and codes with the shipped release.
            const fresh = await createBenchDatabase(options.adminUrl, 'rss');
            try {
              rows.push(await serviceRss(fresh.url, table, note, model, each));
            } finally {
              await fresh.drop();
            }
          }
        }
      }
    }
    return rows;
  };
  if (options.serviceOnly) {
    try {
      return await serviceRows();
    } finally {
      await db.drop();
    }
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
      ...(await serviceRows()),
    ];
  } finally {
    await new Promise<void>((resolve) => server.close(() => resolve()));
    await runtime.stop({ graceful: false });
    await db.drop();
  }
}

if (isMain(import.meta.url)) {
  const { values } = parseArgs({
    options: {
      runs: { type: 'string', default: '20' },
      model: { type: 'string', default: 'balanced' },
      'service-only': { type: 'boolean', default: false },
      'service-roots': { type: 'string' },
      'service-tables': { type: 'string', default: 'shipped,imported' },
      'ingest-seconds': { type: 'string', default: '20' },
      joins: { type: 'string', default: '50' },
      'service-node-args': { type: 'string' },
      'service-engine-threads': { type: 'string' },
      'service-codify-concurrency': { type: 'string', default: '2' },
    },
  });
  await runStandalone((ctx) =>
    run({
      ...ctx,
      runs: Number(values.runs),
      model: values.model as CodifyModel,
      serviceOnly: values['service-only'],
      roots: values['service-roots']?.split(',').map((r) => resolve(r)),
      tables: values['service-tables'].split(',') as ('shipped' | 'imported')[],
      ingestSeconds: Number(values['ingest-seconds']),
      joins: Number(values.joins),
      nodeArgs: values['service-node-args']?.split(' ').filter(Boolean),
      engineThreads: values['service-engine-threads']?.split(',').map(Number),
      codifyConcurrency: Number(values['service-codify-concurrency']),
    }),
  );
}

/** Where the service's RSS is read: after each phase of the held-out measurement, in one process. */
export interface ServiceRssOptions {
  /** Source trees whose build is measured (default: this one); several are measured side by side, in turn. */
  roots?: string[];
  /** Seconds of ingest load (signed `center.upserted` events at 50 connections). */
  ingestSeconds?: number;
  /** Chat runs, each created and joined on its own thread. */
  joins?: number;
  /** Codifications of the 50 KB note. */
  codifications?: number;
  /** Codifications sent at a time (default 2: with ENGINE_THREADS=2 both engine threads load their tables, as on a 3+ core machine). */
  codifyConcurrency?: number;
  /** Extra node options for the service (e.g. --heapsnapshot-signal=SIGUSR2). */
  nodeArgs?: string[];
  /** ENGINE_THREADS values, each measured in turn (a machine with more cores runs 2); unset: the service's default. */
  engineThreads?: number[];
}

interface ProcMemory {
  rss: number;
  hwm: number;
}

/** VmRSS and VmHWM of a process (every thread of it: the HTTP thread, the workers thread, the engine workers), in MB. */
function procMemory(pid: number): ProcMemory {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1]);
  return { rss: kb('VmRSS') / 1024, hwm: kb('VmHWM') / 1024 };
}

/**
 * The service's RSS as the held-out perf run measures it: the compiled build as `npm start` runs
 * it (`node dist/main.js`, ROLE=all, production), one process taken through ingest load, then
 * chat runs created and joined, then codifications of the 50 KB note; VmRSS and VmHWM of the
 * process (engine worker threads included) after each phase. The goal is held to the VmHWM at
 * the end. `table`: the database's ICD-10-CM table, the shipped release (nothing imported) or the
 * full table imported. The bench process's own figures above also hold the import and tsx.
 */
export async function serviceRss(
  databaseUrl: string,
  table: 'shipped' | 'imported',
  note: string,
  model: CodifyModel,
  options: BenchContext & ServiceRssOptions & { root: string; label?: string },
): Promise<BenchResult> {
  const root = options.root;
  execFileSync(process.execPath, [join(root, 'node_modules/typescript/bin/tsc'), '-p', join(root, 'tsconfig.build.json')], {
    stdio: 'ignore',
    cwd: root,
  });
  const port = await freePort();
  const ehrSecret = 'bench-ehr-webhook-secret-'.padEnd(40, 's');
  const child = spawn(process.execPath, [...(options.nodeArgs ?? []), 'dist/main.js'], {
    cwd: root,
    stdio: ['ignore', 'ignore', 'pipe'],
    env: {
      PATH: process.env.PATH,
      NODE_ENV: 'production',
      ROLE: 'all',
      PORT: String(port),
      DATABASE_URL: databaseUrl,
      LOG_LEVEL: 'error',
      JWT_SECRET: BENCH_JWT_SECRET,
      // Production refuses short keys and secrets: each at least 32 bytes.
      VOICE_API_KEYS: 'bench-api-key-'.padEnd(40, 'k'),
      OPERATOR_API_KEYS: `bench:${'bench-operator-key-'.padEnd(40, 'k')}`,
      EHR_WEBHOOK_SECRET: ehrSecret,
      VOICE_WEBHOOK_SECRET: 'bench-voice-webhook-secret-'.padEnd(40, 's'),
      CODIFY_RATE_LIMIT: '1000000',
      RUN_RATE_LIMIT: '1000000',
      // Production requires a key for stored secrets; a fixed one for the bench's own database.
      SECRETS_ENCRYPTION_KEY: 'b'.repeat(64),
      ...(options.engineThreads ? { ENGINE_THREADS: String(options.engineThreads[0]) } : {}),
    },
  });
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => (stderr = (stderr + chunk.toString()).slice(-2000)));
  try {
    return await measure();
  } catch (err) {
    throw new Error(`${(err as Error).message}; the service said: ${stderr.trim() || '(nothing)'}`);
  } finally {
    await stopServer(child);
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
    const pid = child.pid!;
    const phases: string[] = [];
    const read = (phase: string) => {
      const m = procMemory(pid);
      phases.push(`${phase} ${m.rss.toFixed(0)}/${m.hwm.toFixed(0)}`);
      options.log(
        `service RSS (${options.label ?? root}, ${table} table) ${phase}: VmRSS ${m.rss.toFixed(0)} MB, VmHWM ${m.hwm.toFixed(0)} MB`,
      );
      return m;
    };
    read('started');

    // 1. Ingest: signed unique center.upserted events at 50 connections; the workers thread applies them all.
    const ingestSeconds = options.ingestSeconds ?? 20;
    options.log(`service RSS: ingest load for ${ingestSeconds} s`);
    const events = eventSource(`rss-${randomBytes(4).toString('hex')}`, 20_000, ehrSecret);
    const ingested = await load(port, ingestSeconds, 50, events);
    const accepted = Number(ingested.statusCodeStats?.['202']?.count ?? 0);
    if (accepted === 0) throw new Error(`the service accepted no event (${JSON.stringify(ingested.statusCodeStats)})`);
    const backlog = await workerBacklog(databaseUrl);
    read('after ingest');

    // 2. Chat runs: a thread, a run, its join.
    const headers = await benchHeaders();
    const call = async (method: string, path: string, body?: unknown) => {
      const res = await fetch(`${base}/v1/agent/threads${path}`, {
        method,
        headers,
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const json = (await res.json()) as Record<string, unknown>;
      if (!res.ok) throw new Error(`${method} /v1/agent/threads${path} answered ${res.status}`);
      return json;
    };
    const joins = options.joins ?? 50;
    options.log(`service RSS: ${joins} chat runs created and joined`);
    for (let i = 0; i < joins; i++) {
      const { thread_id: threadId } = await call('POST', '', {});
      const created = await call('POST', `/${threadId}/runs`, {
        input: { messages: [{ role: 'user', content: 'What can you do?' }] },
        config: { configurable: { thread_id: threadId } },
      });
      const joined = await call('GET', `/${threadId}/runs/${created.run_id}/join?timeout=30`);
      if (joined.status !== 'completed') throw new Error(`run ended ${String(joined.status)}`);
    }
    read('after joins');

    // 3. Codify the 50 KB note.
    const codifications = options.codifications ?? 6;
    const concurrency = options.codifyConcurrency ?? 2;
    options.log(`service RSS: ${codifications} codifications of the 50 KB note, ${concurrency} at a time`);
    let sent = 0;
    const codifyLoop = async () => {
      while (sent < codifications) {
        sent++;
        const res = await fetch(`${base}/v1/codify`, { method: 'POST', headers, body: JSON.stringify({ medical_note: note, model }) });
        await res.json();
        if (res.status !== 200) throw new Error(`the service answered POST /v1/codify ${res.status}`);
      }
    };
    await Promise.all(Array.from({ length: concurrency }, codifyLoop));
    const end = read('after codify');
    return {
      name: `service RSS after ingest, joins and codify (${table} table${options.label ? `, ${options.label}` : ''})`,
      value: end.hwm,
      unit: 'MB',
      target: { op: '<', value: 300 },
      note:
        `VmHWM of \`node dist/main.js\` (ROLE=all, production; engine worker threads included); VmRSS/VmHWM MB: ${phases.join(', ')}; ` +
        `${accepted} events accepted in ${ingestSeconds} s (backlog ${backlog?.left ?? '?'}), ${joins} runs joined, ${codifications} codifications ${concurrency} at a time`,
    };
  }
}
