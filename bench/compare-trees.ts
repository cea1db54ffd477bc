/**
 * The documentation pipeline of two trees side by side in one run (issue 30: "before and after,
 * side by side in one run"), so the noise of a shared machine hits both alike. Each tree's own
 * `src/main.ts` runs (its own node_modules; the harness is this tree's), ROLE=all, on a fresh
 * database of one PostgreSQL server:
 *
 * 1. webhook -> note.ready, local engine: both services up at once, visits one at a time,
 *    alternating A, B, B, A, A, B, ... (each tree first in half the pairs), after two warm-up
 *    visits each; p50 and p95 per tree, and where the time went (bench/pipeline-latency.ts
 *    stageTimes(): post -> run created, run queue, extraction, -> codification, codify queue,
 *    codification, -> outbox, fan-out, delivery; the engine's stages changed between the trees too).
 * 2. a catalog event behind a burst of `burst` visits, local engine (the `npm run bench` row),
 *    `burst-rounds` times per tree, alternating.
 * 3. a catalog event behind `held-visits` visits whose extractions a model server holds for
 *    `hold-ms` (bench/held-catalog.ts): ms until GET /api/v1/centers lists the center;
 *    `held-rounds` times per tree, alternating, each on a fresh service.
 *
 * The load average is printed with each section. A tree needs its node_modules: for the commit
 * before issue 30, `git worktree add --detach /tmp/bench-before 4de7bb1` and
 * `cp -al node_modules /tmp/bench-before/` (hard links; the dependencies are a superset).
 *
 * More than two trees (the first is the baseline, each round starts one tree later):
 * `--trees before=/tmp/bench-before,start=/tmp/bench-start,after=.` instead of --before/--after.
 * The visits section also prints the time between every two moments the rows and pg-boss jobs of
 * a visit record (bench/pipeline-timeline.ts), hop by hop.
 *
 *   npm run bench:trees -- --before /tmp/bench-before [--after .] [--visits 30] [--burst 8]
 *     [--burst-rounds 5] [--held-visits 8] [--hold-ms 25000] [--held-rounds 5] [--only visits,burst,held] [--json out.json]
 */
import { execFileSync } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { describeHeld, measureHeldCatalog, type HeldCatalog } from './held-catalog.js';
import { openBenchServer } from './lib/database.js';
import { logToStderr } from './lib/standalone.js';
import { median, pct } from './lib/stats.js';
import { gapMedians, visitTimelines, type Timeline } from './pipeline-timeline.js';
import {
  catalogBehindBurst,
  stageTimes,
  STAGE_LABELS,
  STAGES,
  startPipelineService,
  visitLatency,
  type PipelineService,
  type StageTimes,
} from './pipeline-latency.js';

const { values: a } = parseArgs({
  options: {
    before: { type: 'string' },
    trees: { type: 'string' },
    after: { type: 'string', default: fileURLToPath(new URL('..', import.meta.url)) },
    visits: { type: 'string', default: '30' },
    burst: { type: 'string', default: '8' },
    'burst-rounds': { type: 'string', default: '5' },
    'held-visits': { type: 'string', default: '8' },
    'hold-ms': { type: 'string', default: '25000' },
    'held-rounds': { type: 'string', default: '5' },
    only: { type: 'string', default: 'visits,burst,held' },
    json: { type: 'string' },
  },
});

interface Tree {
  label: string;
  root: string;
  commit: string;
}

const load = () =>
  loadavg()
    .map((n) => n.toFixed(2))
    .join(' ');

function tree(label: string, dir: string): Tree {
  const root = resolve(dir);
  if (!existsSync(join(root, 'src/main.ts'))) throw new Error(`${label}: no src/main.ts in ${root}`);
  if (!existsSync(join(root, 'node_modules/tsx'))) throw new Error(`${label}: ${root} has no node_modules (cp -al node_modules ${root}/)`);
  const commit = execFileSync('git', ['log', '-1', '--format=%h %cI'], { cwd: root, encoding: 'utf8' }).trim();
  return { label, root, commit };
}

/** Order of round `i`: the trees rotated by one each round, so each goes first (and last) as often as the others. */
const roundOrder = <T>(i: number, xs: T[]): T[] => xs.map((_, k) => xs[(i + k) % xs.length]);

/** `--trees label=dir,label=dir,...` (two or more, the first the baseline), else `--before` and `--after`. */
function treesOf(): Tree[] {
  if (a.trees)
    return a.trees.split(',').map((spec) => {
      const [label, dir] = spec.split('=');
      if (!label || !dir) throw new Error(`--trees: expected label=dir, got ${spec}`);
      return tree(label, dir);
    });
  if (!a.before) throw new Error('--before DIR is required (a worktree of the commit to compare, with node_modules)');
  return [tree('before', a.before), tree('after', a.after)];
}

const fmt = (n: number) => n.toFixed(0);

async function main(): Promise<void> {
  const trees = treesOf();
  if (trees.length < 2) throw new Error('two trees or more');
  const only = new Set(a.only.split(',').map((s) => s.trim()));
  const visits = Number(a.visits);
  const burst = Number(a.burst);
  const lines: string[] = [
    `clinigate: ${trees.length} trees side by side, Node ${process.version}, ${cpus().length} cores (${cpus()[0]?.model.trim()})`,
    ...trees.map((t) => `  ${t.label}: ${t.root} at ${t.commit}`),
  ];
  const json: Record<string, unknown> = { at: new Date().toISOString(), trees };
  const server = await openBenchServer(logToStderr);
  lines.push(`PostgreSQL ${server.embedded ? 'embedded' : 'at DATABASE_URL'}`, '');
  try {
    if (only.has('visits') || only.has('burst')) {
      const services = new Map<Tree, PipelineService>();
      try {
        for (const t of trees) services.set(t, await startPipelineService(server.adminUrl, { root: t.root, name: t.label }));
        if (only.has('visits')) {
          const times = new Map<Tree, number[]>(trees.map((t) => [t, []]));
          const loadBefore = load();
          for (const t of trees) for (let w = 0; w < 2; w++) await visitLatency(services.get(t)!, `pt-warm-${w}`);
          logToStderr(`visits: ${visits} per tree, alternating`);
          const patients = Array.from({ length: visits }, (_, i) => `pt-seq-${i}`);
          for (let i = 0; i < visits; i++)
            for (const t of roundOrder(i, trees)) times.get(t)!.push(await visitLatency(services.get(t)!, patients[i]));
          const loadAfter = load();
          // Where the time went: the engine's work (which changed between the trees too) apart
          // from intake, queues, pipeline steps and delivery.
          const stages = new Map<Tree, Map<string, StageTimes>>();
          const timelines = new Map<Tree, Map<string, Timeline>>();
          for (const t of trees) stages.set(t, await stageTimes(services.get(t)!, patients));
          for (const t of trees) timelines.set(t, await visitTimelines(services.get(t)!, patients));
          lines.push(
            `webhook -> note.ready, local engine, ${visits} visits per tree one at a time, alternating (load average before ${loadBefore}, after ${loadAfter})`,
          );
          lines.push('| tree | p50 ms | p95 ms | min ms | max ms |', '|---|---:|---:|---:|---:|');
          for (const t of trees) {
            const x = times.get(t)!;
            lines.push(
              `| ${t.label} ${t.commit.split(' ')[0]} | ${fmt(pct(x, 50))} | ${fmt(pct(x, 95))} | ${fmt(Math.min(...x))} | ${fmt(Math.max(...x))} |`,
            );
          }
          const b = times.get(trees[0])!;
          for (const t of trees.slice(1)) {
            const f = times.get(t)!;
            lines.push(
              `${t.label} / ${trees[0].label}: p50 ${(pct(f, 50) / pct(b, 50)).toFixed(2)}x, p95 ${(pct(f, 95) / pct(b, 95)).toFixed(2)}x`,
            );
          }
          lines.push(
            'where the time went, p50 of each stage on its own, ms (post and arrival by the bench clock, the rest from the runs, codify_runs, outbox and webhook_deliveries rows):',
            `| tree | ${STAGES.map((k) => STAGE_LABELS[k]).join(' | ')} | codify engine |`,
            `|---|${STAGES.map(() => '---:').join('|')}|---:|`,
          );
          for (const t of trees) {
            const s = [...stages.get(t)!.values()];
            const p50 = (k: keyof StageTimes) =>
              s.length
                ? fmt(
                    pct(
                      s.map((v) => v[k]),
                      50,
                    ),
                  )
                : '-';
            lines.push(`| ${t.label} (${s.length} of ${visits} visits) | ${STAGES.map(p50).join(' | ')} | ${p50('codifyEngine')} |`);
          }
          lines.push(
            '',
            "hop by hop, p50 ms (bench/pipeline-timeline.ts: row times are their transaction's start, `<queue> fetched` the job's fetch; - where a tree has no such hop):",
            `| gap | ${trees.map((t) => t.label).join(' | ')} |`,
            `|---|${trees.map(() => '---:').join('|')}|`,
          );
          for (const row of gapMedians(trees.map((t) => timelines.get(t)!.values())))
            lines.push(`| ${row.gap} | ${row.p50.map((x) => (x === undefined ? '-' : x.toFixed(1))).join(' | ')} |`);
          lines.push('');
          json.visits = Object.fromEntries(
            trees.map((t) => [
              t.label,
              { ms: times.get(t), stages: Object.fromEntries(stages.get(t)!), timelines: Object.fromEntries(timelines.get(t)!) },
            ]),
          );
        }
        if (only.has('burst')) {
          const rounds = Number(a['burst-rounds']);
          const results = new Map<Tree, { catalogMs: number; beforeLastNote: boolean; burstMs: number }[]>(trees.map((t) => [t, []]));
          const loadBefore = load();
          logToStderr(`burst: ${rounds} rounds per tree, alternating`);
          for (let i = 0; i < rounds; i++)
            for (const t of roundOrder(i, trees)) results.get(t)!.push(await catalogBehindBurst(services.get(t)!, burst, `burst-${i}`));
          lines.push(
            `catalog event completed behind ${burst} visits, local engine, ${rounds} rounds per tree (load average before ${loadBefore}, after ${load()})`,
          );
          lines.push(
            '| tree | catalog ms, each round | median | before the burst last note.ready | burst ms, each round |',
            '|---|---|---:|---|---|',
          );
          for (const t of trees) {
            const r = results.get(t)!;
            lines.push(
              `| ${t.label} | ${r.map((x) => fmt(x.catalogMs)).join(', ')} | ${fmt(median(r.map((x) => x.catalogMs)))} | ${r.filter((x) => x.beforeLastNote).length} of ${r.length} | ${r.map((x) => fmt(x.burstMs)).join(', ')} |`,
            );
          }
          lines.push('');
          json.burst = Object.fromEntries(trees.map((t) => [t.label, results.get(t)]));
        }
      } finally {
        for (const s of services.values()) await s.stop();
      }
    }
    if (only.has('held')) {
      const rounds = Number(a['held-rounds']);
      const heldVisits = Number(a['held-visits']);
      const holdMs = Number(a['hold-ms']);
      const results = new Map<Tree, { m: HeldCatalog; load: string }[]>(trees.map((t) => [t, []]));
      const loadBefore = load();
      for (let i = 0; i < rounds; i++)
        for (const t of roundOrder(i, trees)) {
          logToStderr(`held: round ${i + 1} of ${rounds}, ${t.label}`);
          const m = await measureHeldCatalog({
            adminUrl: server.adminUrl,
            log: logToStderr,
            root: t.root,
            name: t.label,
            visits: heldVisits,
            holdMs,
          });
          results.get(t)!.push({ m, load: loadavg()[0].toFixed(1) });
        }
      lines.push(
        `center listed (GET /api/v1/centers) after a center.upserted posted behind ${heldVisits} visits whose extractions the model holds ${holdMs / 1000} s, ${rounds} rounds per tree, each on a fresh service (load average before ${loadBefore}, after ${load()})`,
      );
      lines.push('| tree | listed ms, each round (1-min load) | median | state then |', '|---|---|---:|---|');
      for (const t of trees) {
        const r = results.get(t)!;
        lines.push(
          `| ${t.label} | ${r.map((x) => `${fmt(x.m.listedMs)} (${x.load})`).join(', ')} | ${fmt(median(r.map((x) => x.m.listedMs)))} | ${describeHeld(r[r.length - 1].m)} |`,
        );
      }
      lines.push('');
      json.held = Object.fromEntries(trees.map((t) => [t.label, results.get(t)]));
    }
  } finally {
    await server.stop();
  }
  process.stdout.write(lines.join('\n') + '\n');
  if (a.json) writeFileSync(a.json, JSON.stringify(json, null, 2));
}

main().catch((err: Error) => {
  process.stderr.write(`bench failed: ${err.stack ?? err.message}\n`);
  process.exit(1);
});
