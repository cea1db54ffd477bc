/**
 * Import circles of a tree of this project, counted three ways (issue 30's "madge and
 * dependency-cruiser with the new rule between modules"):
 *
 * 1. madge 8 (`npx --yes madge@8.0.0 --circular --extensions ts src`, the review's command), with
 *    type imports and without them (`detectiveOptions.ts.skipTypeImports` in a .madgerc of its own);
 * 2. this tree's `npm run lint:deps` (dependency-cruiser, then tools/lint/dependency-rules.mjs's
 *    no-module-cycles) run on the tree with this tree's `.dependency-cruiser.cjs`, so an older tree
 *    is judged by today's rules (`--rules` names another file);
 * 3. cycles between feature modules computed from dependency-cruiser's import graph, whatever the
 *    rules say: the files of src/modules/ collapsed to their module (src/modules/<m>) and to their
 *    folder, strongly connected components of more than one, with one import per arrow as the
 *    example. Type-only imports counted, and again without them.
 *
 *   npx tsx scripts/cycles.ts [--tree DIR] [--rules FILE] [--no-madge]
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { importGraph, moduleOf } from './path-files.js';

const HERE = fileURLToPath(new URL('..', import.meta.url));
const LINT_DEPS = join(HERE, 'tools/lint/dependency-rules.mjs');
const MADGE = 'madge@8.0.0';

/** madge's circular report for `src` of `tree`; `skipTypeImports` leaves `import type` out. */
function madge(tree: string, skipTypeImports: boolean): string {
  const cwd = mkdtempSync(join(tmpdir(), 'clinigate-madge-'));
  try {
    // madge reads .madgerc from its working folder: one of its own, so the tree is not touched.
    writeFileSync(join(cwd, '.madgerc'), JSON.stringify({ detectiveOptions: { ts: { skipTypeImports }, tsx: { skipTypeImports } } }));
    const r = spawnSync(
      'npx',
      [
        '--yes',
        MADGE,
        '--circular',
        '--no-spinner',
        '--no-color',
        '--extensions',
        'ts',
        '--ts-config',
        join(tree, 'tsconfig.json'),
        join(tree, 'src'),
      ],
      {
        cwd,
        encoding: 'utf8',
        maxBuffer: 64 * 1024 * 1024,
      },
    );
    return `${r.stdout}${r.stderr}`.trim();
  } finally {
    rmSync(cwd, { recursive: true, force: true });
  }
}

/**
 * `npm run lint:deps` of this tree run on `tree`: dependency-cruiser with the rules of `rules`,
 * then tools/lint/dependency-rules.mjs's no-module-cycles (each module counted whole). Its report.
 */
function lintDeps(tree: string, rules: string): { code: number | null; report: string } {
  const r = spawnSync(process.execPath, [LINT_DEPS, 'src', '--config', rules], {
    cwd: tree,
    encoding: 'utf8',
    maxBuffer: 256 * 1024 * 1024,
  });
  return { code: r.status, report: `${r.stdout}${r.stderr}`.trim() };
}

/** Strongly connected components of more than one node (Tarjan). */
function cycles(edges: Map<string, Set<string>>): string[][] {
  let index = 0;
  const idx = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const on = new Set<string>();
  const out: string[][] = [];
  const visit = (v: string) => {
    idx.set(v, index);
    low.set(v, index++);
    stack.push(v);
    on.add(v);
    for (const w of edges.get(v) ?? []) {
      if (!idx.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (on.has(w)) low.set(v, Math.min(low.get(v)!, idx.get(w)!));
    }
    if (low.get(v) === idx.get(v)) {
      const scc: string[] = [];
      for (let w = ''; w !== v;) {
        w = stack.pop()!;
        on.delete(w);
        scc.push(w);
      }
      if (scc.length > 1) out.push(scc.sort());
    }
  };
  for (const v of [...edges.keys()].sort()) if (!idx.has(v)) visit(v);
  return out;
}

const FEATURE = /^src\/modules\//;

/**
 * Cycles between the feature modules (src/modules/*: the imports among their files; the
 * composition root and the OpenAPI document import every module and are left out), collapsed by
 * `unit` (module or folder), each arrow with one import as example.
 */
function unitCycles(graph: Map<string, string[]>, unit: (file: string) => string): string[] {
  const edges = new Map<string, Set<string>>();
  const example = new Map<string, string>();
  for (const [from, tos] of graph)
    for (const to of tos) {
      if (!FEATURE.test(from) || !FEATURE.test(to)) continue;
      const [a, b] = [unit(from), unit(to)];
      if (a === b) continue;
      if (!edges.has(a)) edges.set(a, new Set());
      edges.get(a)!.add(b);
      if (!example.has(`${a} ${b}`)) example.set(`${a} ${b}`, `${from} -> ${to}`);
    }
  return cycles(edges).map((scc) => {
    const arrows = scc.flatMap((a) =>
      scc.filter((b) => edges.get(a)?.has(b)).map((b) => `      ${a} -> ${b} (${example.get(`${a} ${b}`)})`),
    );
    return [`    ${scc.join(', ')}`, ...arrows].join('\n');
  });
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const { values } = parseArgs({
    options: {
      tree: { type: 'string', default: HERE },
      rules: { type: 'string', default: join(HERE, '.dependency-cruiser.cjs') },
      'no-madge': { type: 'boolean', default: false },
    },
  });
  const tree = resolve(values.tree);
  const rules = resolve(values.rules);
  const commit = execFileSync('git', ['log', '-1', '--format=%h %cI'], { cwd: tree, encoding: 'utf8' }).trim();
  const lines = [`tree ${tree} at ${commit}`];
  if (!values['no-madge']) {
    for (const skip of [false, true]) {
      const out = madge(tree, skip);
      const tail = out.split('\n').filter((l) => /Processed|circular|^\d+\)|✖|✔/.test(l));
      lines.push(`madge --circular ${skip ? 'without type imports' : 'with type imports'}:`, ...tail.map((l) => `  ${l.trim()}`));
    }
  }
  const deps = lintDeps(tree, rules);
  lines.push(
    `npm run lint:deps (this tree's, rules ${rules}) on the tree: exit ${deps.code}`,
    ...deps.report.split('\n').map((l) => `  ${l}`),
  );
  for (const runtime of [false, true]) {
    const graph = importGraph(tree, runtime);
    const label = runtime ? 'runtime imports only' : 'type-only imports included';
    const byModule = unitCycles(graph, moduleOf);
    const byFolder = unitCycles(graph, (f) => dirname(f));
    lines.push(`cycles between modules (${label}): ${byModule.length}`, ...byModule);
    lines.push(`cycles between folders (${label}): ${byFolder.length}`, ...byFolder);
  }
  process.stdout.write(lines.join('\n') + '\n');
}
