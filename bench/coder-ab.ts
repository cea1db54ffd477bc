/**
 * The in-process coder on the bench's 50 KB note, two source trees side by side in one process:
 * runs alternate between the trees (and the levels), so a shared, loaded machine slows both
 * alike. Prints p50/p95 per tree and level, and the ratio of p50s. With one tree it is a plain
 * timing loop, e.g. under `node --cpu-prof` (then bench/profile-shares.ts reads the profile).
 *
 * `--dist` loads each tree's compiled build (dist/, `npm run build`) rather than its sources, so
 * a profile's lines are the build's lines; `--cpu-prof <file>` profiles the timed runs only, and
 * `--heap-prof <file>` samples what they allocate (a .heapprofile, collected objects included).
 *
 *   tsx bench/coder-ab.ts [--roots /tmp/base,.] [--runs 20] [--models fast,balanced,high-quality] [--dist] [--cpu-prof f]
 */
import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector';
import { parseArgs } from 'node:util';
import { AB_OPTIONS, readAbOptions, treeModule } from './lib/ab-options.js';
import { note50k } from './lib/note-50k.js';
import { pct } from './lib/stats.js';

const { values } = parseArgs({
  options: {
    ...AB_OPTIONS,
    'cpu-prof': { type: 'string' },
    'heap-prof': { type: 'string' },
  },
});

type Codify = (table: unknown, text: string, model: string) => { final_code_assessments: unknown[] };
const { roots, models, runs, dist } = readAbOptions(values);
const note = note50k();
const coders: Array<{ root: string; codify: Codify; table: unknown }> = [];
for (const root of roots) {
  const at = (p: string) => import(treeModule(root, dist, p));
  const { codifyText } = await at('engine/local/coder/index');
  const { shippedCodeTable } = await at('terminology/shipped-release');
  const table = shippedCodeTable();
  // Warm-up: the table's title index, the lexicon, the Index and Tabular load on first use.
  for (const m of models) for (let i = 0; i < 3; i++) codifyText(table, note, m);
  coders.push({ root, codify: codifyText, table });
}
// Wall time, and the process's CPU time (user + system): on a machine other jobs load, CPU time
// says more about the code than wall time does.
const session = values['cpu-prof'] || values['heap-prof'] ? new Session() : undefined;
const post = (method: string, params?: object) =>
  new Promise<unknown>((done, fail) => session!.post(method, params, (err, result) => (err ? fail(err) : done(result))));
session?.connect();
if (values['cpu-prof']) {
  await post('Profiler.enable');
  await post('Profiler.start');
}
// Allocations sampled every 4 KB (kept or not): what the garbage collector is left to sweep.
if (values['heap-prof'])
  await post('HeapProfiler.startSampling', {
    samplingInterval: 4096,
    includeObjectsCollectedByMajorGC: true,
    includeObjectsCollectedByMinorGC: true,
  });
const wall = coders.map(() => models.map(() => [] as number[]));
const cpu = coders.map(() => models.map(() => [] as number[]));
for (let r = 0; r < runs; r++)
  coders.forEach((c, ci) =>
    models.forEach((m, mi) => {
      const c0 = process.cpuUsage();
      const t0 = performance.now();
      c.codify(c.table, note, m);
      wall[ci][mi].push(performance.now() - t0);
      const used = process.cpuUsage(c0);
      cpu[ci][mi].push((used.user + used.system) / 1000);
    }),
  );
if (values['cpu-prof']) {
  const { profile } = (await post('Profiler.stop')) as { profile: unknown };
  writeFileSync(values['cpu-prof'], JSON.stringify(profile));
}
if (values['heap-prof']) {
  const { profile } = (await post('HeapProfiler.stopSampling')) as { profile: unknown };
  writeFileSync(values['heap-prof'], JSON.stringify(profile));
}
console.log(`${Buffer.byteLength(note)}-byte note, ${runs} runs per tree and level, alternating`);
const cell = (xs: number[]) => `min ${Math.min(...xs).toFixed(1)} p50 ${pct(xs, 50).toFixed(1)} p95 ${pct(xs, 95).toFixed(1)}`;
const ratio = (xs: number[][][], mi: number) => {
  if (coders.length < 2) return '';
  const [a, b] = [xs[0][mi], xs[coders.length - 1][mi]];
  return ` ratio p50 ${(pct(b, 50) / pct(a, 50)).toFixed(2)} p25 ${(pct(b, 25) / pct(a, 25)).toFixed(2)} min ${(Math.min(...b) / Math.min(...a)).toFixed(2)}`;
};
models.forEach((m, mi) => {
  const cells = coders.map((c, ci) => `${c.root}: wall ${cell(wall[ci][mi])} ms, cpu ${cell(cpu[ci][mi])} ms`);
  console.log(`${m.padEnd(12)} ${cells.join(' | ')}\n${''.padEnd(12)} wall${ratio(wall, mi)}; cpu${ratio(cpu, mi)}`);
});
