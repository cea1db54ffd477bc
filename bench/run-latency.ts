/**
 * Run latency: (1) a chat run from POST .../runs to the answer of .../join, over HTTP on
 * 127.0.0.1 with the run job loops in the same process (job -> NOTIFY -> job loop -> NOTIFY -> join);
 * (2) the local engine's extraction of a ~3,000-word visit transcript (ACI-Bench dialogues from
 * ../shared/data, joined). Targets: median <= 50 ms and <= 100 ms. Runs on a fresh database
 * (dropped at the end) of DATABASE_URL's server, or of an embedded PostgreSQL when it is unset.
 *
 *   tsx bench/run-latency.ts [--runs 50] [--extractions 20]
 */
import { existsSync, readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { parseArgs } from 'node:util';
import { parseCsvRecords } from '../scripts/lib/csv.js';
import { createApp } from '../src/app.js';
import { startJobLoops } from '../src/jobs/define-job.js';
import { runExecuteDeadJob } from '../src/modules/runs/run-execute-dead.job.js';
import { runExecuteJob } from '../src/modules/runs/run-execute.job.js';
import { createBenchDatabase } from './lib/database.js';
import { benchHeaders, openBenchRuntime } from './lib/runtime.js';
import { isMain, runStandalone } from './lib/standalone.js';
import { pct } from './lib/stats.js';
import type { BenchContext, BenchResult } from './lib/types.js';

const ACI_TRAIN = new URL('../../shared/data/aci-bench/train.csv', import.meta.url).pathname;
const TARGET_WORDS = 3_000;

export interface RunLatencyOptions extends BenchContext {
  runs?: number;
  extractions?: number;
}

const words = (s: string) => s.split(/\s+/).filter(Boolean).length;

/** A visit of about 3,000 words: the longest ACI-Bench dialogue, continued with the next longest. */
export function longTranscript(): string {
  const fallback = ['[doctor] What brings you in today?', '[patient] I have had chest tightness and a cough for a week.'];
  const dialogues = existsSync(ACI_TRAIN)
    ? parseCsvRecords(readFileSync(ACI_TRAIN, 'utf8'))
        .map((r) => r.dialogue)
        .sort((a, b) => words(b) - words(a))
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

const ms1 = (n: number) => `${n.toFixed(1)} ms`;

export async function run(options: RunLatencyOptions): Promise<BenchResult[]> {
  const runs = options.runs ?? 50;
  const extractions = options.extractions ?? 20;
  const db = await createBenchDatabase(options.adminUrl, 'runs');
  const { runtime } = await openBenchRuntime(db.url);
  const { deps } = runtime;
  const server = createServer(createApp(deps).listener).listen(0, '127.0.0.1');
  try {
    await new Promise<void>((resolve) => server.once('listening', () => resolve()));
    await startJobLoops(deps, runExecuteJob);
    await startJobLoops(deps, runExecuteDeadJob);
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1/agent/threads`;
    const headers = await benchHeaders();
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
      const created = await call('POST', `/${threadId}/runs`, {
        input: { messages: [{ role: 'user', content: 'What can you do?' }] },
        config: { configurable: { thread_id: threadId } },
      });
      const createMs = performance.now() - t0;
      const joined = await call('GET', `/${threadId}/runs/${created.run_id}/join?timeout=30`);
      const elapsed = performance.now() - t0;
      if (joined.status !== 'completed') throw new Error(`run ended ${String(joined.status)}`);
      // Where the time went, from the run's own timestamps (database clock, ms precision).
      parts.create.push(createMs);
      parts.queued.push(Date.parse(String(joined.started_at)) - Date.parse(String(joined.created_at)));
      parts.executing.push(Date.parse(String(joined.ended_at)) - Date.parse(String(joined.started_at)));
      return elapsed;
    };
    options.log(`chat runs: 5 warm-up + ${runs}`);
    for (let i = 0; i < 5; i++) await chatRun(); // warm-up: connections, JIT, the queue's plan
    for (const list of Object.values(parts)) list.length = 0;
    const runMs: number[] = [];
    for (let i = 0; i < runs; i++) runMs.push(await chatRun());

    const transcript = longTranscript();
    options.log(`extraction: ${words(transcript)} words, 1 warm-up + ${extractions}`);
    await deps.engine.extractNote(transcript, 'SOAP'); // warm-up: the NLP model loads on first use
    const extractMs: number[] = [];
    for (let i = 0; i < extractions; i++) {
      const t0 = performance.now();
      await deps.engine.extractNote(transcript, 'SOAP');
      extractMs.push(performance.now() - t0);
    }
    return [
      {
        name: 'chat run create -> join, median',
        value: pct(runMs, 50),
        unit: 'ms',
        target: { op: '<=', value: 50 },
        digits: 1,
        note: `n=${runs}, p95 ${ms1(pct(runMs, 95))}; POST answered ${ms1(pct(parts.create, 50))}, queued ${ms1(pct(parts.queued, 50))}, executing ${ms1(pct(parts.executing, 50))} (medians)`,
      },
      {
        name: `extraction engine, ${words(transcript)}-word transcript, median`,
        value: pct(extractMs, 50),
        unit: 'ms',
        target: { op: '<=', value: 100 },
        digits: 1,
        note: `engine ${deps.engine.name}, n=${extractions}, p95 ${ms1(pct(extractMs, 95))}`,
      },
    ];
  } finally {
    await new Promise<void>((resolve) => server.close(() => resolve()));
    await runtime.stop({ graceful: false });
    await db.drop();
  }
}

if (isMain(import.meta.url)) {
  const { values } = parseArgs({ options: { runs: { type: 'string', default: '50' }, extractions: { type: 'string', default: '20' } } });
  await runStandalone((ctx) => run({ ...ctx, runs: Number(values.runs), extractions: Number(values.extractions) }));
}
