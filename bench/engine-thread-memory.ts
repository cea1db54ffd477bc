/**
 * The engine thread's share of the service's RSS (issue 28): a bare `node` process per source tree
 * starts one engine thread as the service does (its compiled build, the service's young-generation
 * bound, the thread's resource limits), which builds the shipped tables and then codes the bench's
 * 50 KB note `--codings` times (balanced). Prints the process's VmRSS/VmHWM in MB once the thread's
 * modules are loaded, after the tables, and after each coding; trees alternate, `--rounds` times.
 *
 *   tsx bench/engine-thread-memory.ts [--roots /tmp/base,.] [--codings 6] [--rounds 3] [--young 8]
 */
import { execFileSync } from 'node:child_process';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { note50k } from './lib/note-50k.js';

const { values } = parseArgs({
  options: {
    roots: { type: 'string', default: '.' },
    codings: { type: 'string', default: '6' },
    rounds: { type: 'string', default: '3' },
    young: { type: 'string', default: '8' },
  },
});

// The process: the main thread bounds its young generation as main.ts does, then starts the thread.
const MAIN = `
import { Worker } from 'node:worker_threads';
import { readFileSync } from 'node:fs';
const { root, young } = JSON.parse(process.env.MEMORY_BENCH);
const yg = await import(root + '/dist/lib/young-generation.js');
yg.boundYoungGeneration(8);
const kb = (s, f) => Number(new RegExp('^' + f + ':\\\\s+(\\\\d+) kB', 'm').exec(s)[1]) / 1024;
const phases = [];
const w = new Worker(process.env.MEMORY_BENCH_THREAD, { eval: true, resourceLimits: { maxOldGenerationSizeMb: 512, maxYoungGenerationSizeMb: young } });
w.once('online', yg.afterThreadStart);
w.on('message', (phase) => {
  const s = readFileSync('/proc/self/status', 'utf8');
  phases.push(phase + ' ' + kb(s, 'VmRSS').toFixed(0) + '/' + kb(s, 'VmHWM').toFixed(0));
  if (phase === 'done') { console.log(phases.join(', ')); void w.terminate(); }
});
`;

// The thread: the engine thread's modules, its tables (tablesOf, as the first codify sets it up), then the codings.
const THREAD = `
import { parentPort } from 'node:worker_threads';
const { root, codings, note } = JSON.parse(process.env.MEMORY_BENCH);
const pause = () => new Promise((r) => setTimeout(r, 30));
const { LocalEngine } = await import(root + '/dist/engine/local/local-engine.js');
const { tablesOf } = await import(root + '/dist/engine/isolated/code-table-payload.js');
parentPort.postMessage('loaded');
await pause();
const { table } = await tablesOf({ build: 'shipped' });
parentPort.postMessage('tables');
await pause();
const engine = new LocalEngine(() => table);
for (let i = 1; i <= codings; i++) {
  await engine.codify({ text: note, model: 'balanced' });
  parentPort.postMessage('coding ' + i);
  await pause();
}
parentPort.postMessage('done');
`;

const roots = values.roots.split(',').map((r) => resolve(r));
const note = note50k();
for (const root of roots)
  execFileSync(process.execPath, [join(root, 'node_modules/typescript/bin/tsc'), '-p', join(root, 'tsconfig.build.json')], { cwd: root });
for (let round = 1; round <= Number(values.rounds); round++) {
  for (const root of roots) {
    const out = execFileSync(process.execPath, ['--input-type=module', '-e', MAIN], {
      env: {
        PATH: process.env.PATH,
        MEMORY_BENCH: JSON.stringify({ root, young: Number(values.young), codings: Number(values.codings), note }),
        MEMORY_BENCH_THREAD: THREAD,
      },
      encoding: 'utf8',
    });
    console.log(`round ${round} ${root}: ${out.trim()} (VmRSS/VmHWM MB)`);
  }
}
