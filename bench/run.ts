/**
 * `npm run bench`: every benchmark in one run, one table side by side (figure, unit, target,
 * pass/fail) with the ratios measured in the same run. Uses DATABASE_URL's server when set, else
 * an embedded PostgreSQL in a temp dir on a free port; each benchmark works in a fresh database
 * that it drops. About 3-4 minutes on 2 cores with the defaults.
 *
 * `held` is a catalog event behind eight pipelines whose extractions a model server holds 25 s
 * (about 35 s of the run). `npm run bench:trees` runs the pipeline, burst and held figures of two
 * trees side by side.
 *
 *   npm run bench -- [--only codify,runs,webhooks,ingest,hl7,pipeline,signoff,held] [--signs 20] [--runs 50] [--extractions 20]
 *     [--codify-runs 15] [--events 2000] [--ingest-seconds 10] [--ingest-rounds 5]
 *     [--ingest-warmup 10] [--connections 50] [--hl7-senders 20] [--hl7-messages 50]
 *     [--pipeline-visits 10] [--pipeline-burst 8] [--held-visits 8] [--hold-ms 25000] [--log-level info] [--json out.json]
 */
import { writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import * as codify from './codify-latency.js';
import * as held from './held-catalog.js';
import * as hl7 from './hl7-ack-latency.js';
import * as ingest from './ingest.js';
import * as pipeline from './pipeline-latency.js';
import { openBenchServer } from './lib/database.js';
import { logToStderr } from './lib/standalone.js';
import { formatTable } from './lib/table.js';
import { passes, type BenchContext, type BenchResult } from './lib/types.js';
import * as runs from './run-latency.js';
import * as signoff from './signoff-latency.js';
import * as webhooks from './webhook-deliveries.js';

const { values: a } = parseArgs({
  options: {
    only: { type: 'string', default: 'codify,runs,webhooks,ingest,hl7,pipeline,signoff,held' },
    runs: { type: 'string', default: '50' },
    extractions: { type: 'string', default: '20' },
    'codify-runs': { type: 'string', default: '15' },
    events: { type: 'string', default: '2000' },
    'ingest-seconds': { type: 'string', default: '10' },
    'ingest-rounds': { type: 'string', default: '5' },
    'ingest-warmup': { type: 'string', default: '10' },
    connections: { type: 'string', default: '50' },
    'hl7-senders': { type: 'string', default: '20' },
    'hl7-messages': { type: 'string', default: '50' },
    'pipeline-visits': { type: 'string', default: '10' },
    'pipeline-burst': { type: 'string', default: '8' },
    'held-visits': { type: 'string', default: '8' },
    'hold-ms': { type: 'string', default: '25000' },
    signs: { type: 'string', default: '20' },
    'log-level': { type: 'string', default: 'info' },
    json: { type: 'string' },
  },
});

const BENCHES: Record<string, (ctx: BenchContext) => Promise<BenchResult[]>> = {
  runs: (ctx) => runs.run({ ...ctx, runs: Number(a.runs), extractions: Number(a.extractions) }),
  codify: (ctx) => codify.run({ ...ctx, runs: Number(a['codify-runs']) }),
  webhooks: (ctx) => webhooks.run({ ...ctx, events: Number(a.events) }),
  pipeline: (ctx) => pipeline.run({ ...ctx, visits: Number(a['pipeline-visits']), burst: Number(a['pipeline-burst']) }),
  signoff: (ctx) => signoff.run({ ...ctx, signs: Number(a.signs) }),
  held: (ctx) => held.run({ ...ctx, visits: Number(a['held-visits']), holdMs: Number(a['hold-ms']) }),
  hl7: (ctx) => hl7.run({ ...ctx, senders: Number(a['hl7-senders']), messages: Number(a['hl7-messages']) }),
  ingest: (ctx) =>
    ingest.run({
      ...ctx,
      seconds: Number(a['ingest-seconds']),
      rounds: Number(a['ingest-rounds']),
      warmup: Number(a['ingest-warmup']),
      connections: Number(a.connections),
      logLevel: a['log-level'],
    }),
};

const load = () =>
  loadavg()
    .map((n) => n.toFixed(2))
    .join(' ');

async function main(): Promise<void> {
  const selected = a.only
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  for (const name of selected) if (!BENCHES[name]) throw new Error(`unknown benchmark ${name} (known: ${Object.keys(BENCHES).join(', ')})`);
  const started = performance.now();
  const loadBefore = load();
  const server = await openBenchServer(logToStderr);
  const results: BenchResult[] = [];
  const failures: string[] = [];
  try {
    for (const name of selected) {
      const t0 = performance.now();
      logToStderr(`${name}: start`);
      try {
        results.push(...(await BENCHES[name]({ adminUrl: server.adminUrl, log: logToStderr })));
      } catch (err) {
        failures.push(`${name}: ${(err as Error).message}`);
        logToStderr(`${name} failed: ${(err as Error).stack ?? String(err)}`);
      }
      logToStderr(`${name}: done in ${((performance.now() - t0) / 1000).toFixed(0)} s`);
    }
  } finally {
    await server.stop();
  }
  const seconds = (performance.now() - started) / 1000;
  const header = [
    `clinigate benchmarks: Node ${process.version}, ${cpus().length} cores (${cpus()[0]?.model.trim()}), PostgreSQL ${server.embedded ? 'embedded' : 'at DATABASE_URL'}`,
    `load average before ${loadBefore}, after ${load()} (other work on the machine skews every figure; ratios are measured side by side)`,
    '',
  ];
  const missed = results.filter((r) => passes(r) === false).length;
  const footer = [
    '',
    `${results.filter((r) => passes(r) === true).length} goals met, ${missed} missed; ${failures.length} benchmark(s) failed to run; ${seconds.toFixed(0)} s in all`,
    ...failures.map((f) => `  failed: ${f}`),
  ];
  process.stdout.write([...header, formatTable(results), ...footer].join('\n') + '\n');
  if (a.json) writeFileSync(a.json, JSON.stringify({ at: new Date().toISOString(), seconds, results, failures }, null, 2));
  if (failures.length) process.exitCode = 1;
}

main().catch((err: Error) => {
  process.stderr.write(`bench failed: ${err.stack ?? err.message}\n`);
  process.exit(1);
});
