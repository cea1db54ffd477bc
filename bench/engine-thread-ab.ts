/**
 * The coder as the service runs it, in an engine thread (src/engine/isolated/), on the bench's
 * 50 KB note: two source trees side by side in one process, one thread each, runs alternating
 * between the trees and levels so that a loaded machine slows both alike. Prints wall p50/p95 of
 * `engine.codify` (posting the note and cloning the result back included) per tree and level, and
 * the ratio of p50s; the same of the engine thread's own CPU time (Linux schedstat), and of the
 * process's CPU time during the call (the engine thread, V8's helper threads that collect garbage
 * in parallel, and the waiting main thread). This is the codify bench's engine row without the
 * database and HTTP parts.
 *
 * Under `node --cpu-prof` every thread writes its own profile (the engine threads' carry a thread
 * id in the file name); bench/profile-shares.ts reads them. Warm-up runs are in those profiles too.
 * `--dist` runs each tree's compiled build (`npm run build`), so a profile's lines are the build's.
 * The table is the CMS file with its category headers, as an import stores it and as the codify
 * bench codes (`--table shipped`: the shipped release).
 *
 *   tsx bench/engine-thread-ab.ts [--roots /tmp/base,.] [--runs 20] [--models fast,balanced,high-quality] [--dist]
 *     [--table imported|shipped] [--warmup 1] [--curve]
 *
 * `--curve` also prints each run's engine-thread CPU in order (run 1 is the first after the
 * warm-up): how many codings a fresh thread takes to reach its steady pace.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import { CodeTable } from '../src/terminology/code-table.js';
import { importedTableRows } from '../scripts/lib/full-table.js';
import { AB_OPTIONS, readAbOptions, treeModule } from './lib/ab-options.js';
import { note50k } from './lib/note-50k.js';
import { pct } from './lib/stats.js';

const { values } = parseArgs({
  options: {
    ...AB_OPTIONS,
    table: { type: 'string', default: 'imported' },
    warmup: { type: 'string', default: '1' },
    curve: { type: 'boolean', default: false },
  },
});

interface Engine {
  codify(input: { text: string; model: string }): Promise<{ final_code_assessments: unknown[] }>;
  close(): Promise<void>;
}
const { roots, models, runs, dist } = readAbOptions(values);
const note = note50k();
// As the codify bench's engine row codes: the CMS file imported, with its category headers.
let imported: unknown;
if (values.table === 'imported') imported = new CodeTable(await importedTableRows());
else if (values.table !== 'shipped') throw new Error('--table is imported or shipped');
// The engine thread's own CPU time (Linux: /proc/self/task/<tid>/schedstat, ns on a CPU): on a
// machine other jobs load, it says more about the code than wall time does. The engine's thread is
// the task that appeared with it and ran most during its warm-up.
const tasks = () => new Set(readdirSync('/proc/self/task'));
const cpuNs = (tid: string) => Number(readFileSync(`/proc/self/task/${tid}/schedstat`, 'utf8').split(' ')[0]);
const threads: string[] = [];
const engines: Engine[] = [];
for (const root of roots) {
  const before = tasks();
  const { IsolatedEngine } = (await import(treeModule(root, dist, 'engine/isolated/isolated-engine'))) as {
    IsolatedEngine: new (o: { codeTable: () => unknown; size: number }) => Engine;
  };
  const engine = new IsolatedEngine({ codeTable: () => imported ?? 'shipped', size: 1 });
  // Warm-up (as the codify bench: one note): the thread builds the tables and the lexicons on first use.
  for (const m of models) for (let i = 0; i < Number(values.warmup); i++) await engine.codify({ text: note, model: m });
  engines.push(engine);
  const fresh = [...tasks()].filter((t) => !before.has(t));
  threads.push(fresh.sort((a, b) => cpuNs(b) - cpuNs(a))[0]);
}
const wall = engines.map(() => models.map(() => [] as number[]));
const cpu = engines.map(() => models.map(() => [] as number[]));
const proc = engines.map(() => models.map(() => [] as number[]));
for (let r = 0; r < runs; r++)
  for (const [ei, e] of engines.entries())
    for (const [mi, m] of models.entries()) {
      const c0 = cpuNs(threads[ei]);
      const p0 = process.cpuUsage();
      const t0 = performance.now();
      await e.codify({ text: note, model: m });
      wall[ei][mi].push(performance.now() - t0);
      cpu[ei][mi].push((cpuNs(threads[ei]) - c0) / 1e6);
      const used = process.cpuUsage(p0);
      proc[ei][mi].push((used.user + used.system) / 1000);
    }
await Promise.all(engines.map((e) => e.close()));
console.log(
  `${Buffer.byteLength(note)}-byte note, ${runs} runs per tree and level, alternating, one engine thread per tree; load ${loadavg()
    .map((l) => l.toFixed(1))
    .join(' ')}`,
);
const cell = (xs: number[]) => `min ${Math.min(...xs).toFixed(1)} p50 ${pct(xs, 50).toFixed(1)} p95 ${pct(xs, 95).toFixed(1)}`;
const ratio = (xs: number[][][], mi: number) => {
  if (engines.length < 2) return '';
  const [a, b] = [xs[0][mi], xs[engines.length - 1][mi]];
  return ` ratio p50 ${(pct(b, 50) / pct(a, 50)).toFixed(2)} p95 ${(pct(b, 95) / pct(a, 95)).toFixed(2)}`;
};
models.forEach((m, mi) => {
  const cells = engines.map(
    (_, ei) => `${roots[ei]}: wall ${cell(wall[ei][mi])} ms, thread cpu ${cell(cpu[ei][mi])} ms, process cpu ${cell(proc[ei][mi])} ms`,
  );
  console.log(
    `${m.padEnd(12)} ${cells.join(' | ')}\n${''.padEnd(12)} wall${ratio(wall, mi)}; thread cpu${ratio(cpu, mi)}; process cpu${ratio(proc, mi)}`,
  );
  if (values.curve)
    engines.forEach((_, ei) =>
      console.log(`${''.padEnd(12)} ${roots[ei]} thread cpu by run: ${cpu[ei][mi].map((x) => x.toFixed(0)).join(' ')}`),
    );
});
