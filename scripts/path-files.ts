/**
 * The files and folders of the EHR and HL7 paths in a tree of this project (issue 30's "report the
 * EHR path and the HL7 path file by file, before and after"), counted from dependency-cruiser's
 * JSON (the copy in tools/lint/node_modules), with one rule for every tree:
 *
 * - A path is the chain of stages an event passes through: the inbound handler (the signed EHR
 *   webhook's route handler, or the MLLP listener), the inbound-event job, the event type's
 *   handler, the pipeline job, the extraction run's job, the codify job, the outbox dispatcher, the
 *   outbound delivery job and the transport of the path's destination kind (the EHR path's
 *   `note.ready` goes to a JSON webhook, the HL7 path's to an HL7 receiver over MLLP). Stages meet
 *   through queues and the root's registries (jobs, event types, transports), not through imports,
 *   so each stage is a seed; the stages' files are named below for each layout, and the first that
 *   exists is used. Where the delivery job still imported every kind (send-by-kind.ts, up to
 *   h30-path), that file is the transport's seed: the job reached it anyway, so older counts hold.
 * - A file is on the path when it is a seed or reachable from one by following imports inside
 *   src/ (node_modules not followed; the composition root, which no module imports, is never
 *   reached). Type-only imports are followed (a reader follows them too); `--runtime` leaves them out.
 * - Infrastructure (src/lib, db, http, jobs, metrics, engine, terminology: the folders the
 *   dependency rule calls infrastructure, less outbound-events, which holds the note.ready
 *   contract) is reached too and counted separately: "path" is the rest.
 * - A folder is a file's directory (src/modules/outbound-webhooks/transport counts apart from
 *   src/modules/outbound-webhooks); a module is the folder under src/modules/ or src/ that holds
 *   it (src/modules/outbound-webhooks, src/hl7; files directly in src/ make the module "src").
 *
 * `--files` lists every file; `--against DIR` also counts the other tree and lists the path files
 * found in only one of the two (a file git sees as moved shows as `~ old -> new`); `--markdown`
 * then prints each path as a table, a row per module with its files in each tree.
 *
 *   npx tsx scripts/path-files.ts [--tree DIR] [--against DIR] [--runtime] [--files] [--markdown] [--json out.json]
 */
import { execFileSync } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const HERE = fileURLToPath(new URL('..', import.meta.url));
const CRUISER = join(HERE, 'tools/lint/node_modules/dependency-cruiser/bin/dependency-cruise.mjs');

export const INFRASTRUCTURE = /^src\/(lib|db|http|jobs|metrics|engine|terminology)\//;

/** One stage of a path: the candidate files of its handler, in the order of the layouts. */
interface Stage {
  name: string;
  files: string[];
}

const DELIVERY: Stage[] = [
  { name: 'pipeline job', files: ['src/modules/pipeline/pipeline-advance.job.ts'] },
  { name: 'extraction run job', files: ['src/modules/runs/run-execute.job.ts'] },
  { name: 'codify job', files: ['src/modules/codify/codify.job.ts'] },
  { name: 'outbox dispatcher', files: ['src/modules/outbound-webhooks/fan-out/outbox-dispatcher.ts'] },
  {
    name: 'delivery job',
    files: [
      'src/modules/outbound-webhooks/delivery-job/delivery-worker.ts',
      'src/modules/outbound-webhooks/delivery-job/webhook-delivery.job.ts',
    ],
  },
];

export const PATHS: Record<string, Stage[]> = {
  ehr: [
    {
      name: 'signed EHR webhook route handler',
      files: ['src/modules/inbound-webhooks/receive-event.ts', 'src/modules/inbound-events/receive-event.ts'],
    },
    {
      name: 'inbound-event job',
      files: ['src/modules/inbound-webhooks/inbound-event.job.ts', 'src/modules/inbound-events/inbound-event.job.ts'],
    },
    {
      name: 'encounter.transcript type',
      files: ['src/modules/inbound-webhooks/types/encounter-transcript.ts', 'src/modules/pipeline/encounter-transcript.event.ts'],
    },
    ...DELIVERY,
    {
      name: 'webhook transport',
      files: ['src/modules/outbound-webhooks/transport/webhook.transport.ts', 'src/modules/outbound-webhooks/transport/send-by-kind.ts'],
    },
  ],
  hl7: [
    { name: 'MLLP listener', files: ['src/modules/hl7-inbound/mllp-listener.ts', 'src/modules/hl7/mllp-listener.ts'] },
    {
      name: 'inbound-event job',
      files: ['src/modules/inbound-webhooks/inbound-event.job.ts', 'src/modules/inbound-events/inbound-event.job.ts'],
    },
    {
      name: 'ORU/MDM types',
      files: ['src/modules/inbound-webhooks/types/hl7-messages.ts', 'src/modules/hl7/hl7-messages.event.ts'],
    },
    ...DELIVERY,
    {
      name: 'hl7-mllp transport',
      files: ['src/modules/hl7/hl7-mllp.transport.ts', 'src/modules/outbound-webhooks/transport/send-by-kind.ts'],
    },
  ],
};

interface CruiseModule {
  source: string;
  dependencies: { resolved: string; dependencyTypes: string[]; coreModule: boolean; couldNotResolve: boolean }[];
}

/** The import graph of `tree`'s src/ (file -> files it imports, inside src/). */
export function importGraph(tree: string, runtimeOnly: boolean): Map<string, string[]> {
  const out = execFileSync(
    process.execPath,
    [
      CRUISER,
      'src',
      '--no-config',
      '--output-type',
      'json',
      '--ts-config',
      'tsconfig.json',
      '--ts-pre-compilation-deps',
      '--do-not-follow',
      'node_modules',
      '--include-only',
      '^src/',
    ],
    { cwd: tree, maxBuffer: 256 * 1024 * 1024, encoding: 'utf8' },
  );
  const modules = (JSON.parse(out) as { modules: CruiseModule[] }).modules;
  const graph = new Map<string, string[]>();
  for (const m of modules) {
    const to = m.dependencies
      .filter((d) => !d.coreModule && !d.couldNotResolve && d.resolved.startsWith('src/'))
      .filter((d) => !runtimeOnly || !d.dependencyTypes.includes('type-only'))
      .map((d) => d.resolved);
    graph.set(m.source, [...new Set(to)]);
  }
  return graph;
}

export interface PathReport {
  path: string;
  seeds: { stage: string; file: string }[];
  files: string[];
  pathFiles: string[];
  infrastructureFiles: string[];
  folders: string[];
  pathFolders: string[];
  /** src/modules/<m> or src/<d> of each path file (module "src" for files directly in src/). */
  pathModules: string[];
}

export function moduleOf(file: string): string {
  const parts = file.split('/');
  if (parts[1] === 'modules' && parts.length > 3) return parts.slice(0, 3).join('/');
  return parts.length > 2 ? parts.slice(0, 2).join('/') : 'src';
}

export function walk(tree: string, name: string, graph: Map<string, string[]>): PathReport {
  const seeds = PATHS[name].map((stage) => {
    const file = stage.files.find((f) => existsSync(join(tree, f)));
    if (!file) throw new Error(`${name}: no file of stage "${stage.name}" in ${tree} (looked for ${stage.files.join(', ')})`);
    return { stage: stage.name, file };
  });
  const seen = new Set<string>();
  const todo = seeds.map((s) => s.file);
  while (todo.length) {
    const f = todo.pop()!;
    if (seen.has(f)) continue;
    seen.add(f);
    for (const g of graph.get(f) ?? []) if (!seen.has(g)) todo.push(g);
  }
  const files = [...seen].sort();
  const pathFiles = files.filter((f) => !INFRASTRUCTURE.test(f));
  const folders = (list: string[]) => [...new Set(list.map((f) => dirname(f)))].sort();
  return {
    path: name,
    seeds,
    files,
    pathFiles,
    infrastructureFiles: files.filter((f) => INFRASTRUCTURE.test(f)),
    folders: folders(files),
    pathFolders: folders(pathFiles),
    pathModules: [...new Set(pathFiles.map(moduleOf))].sort(),
  };
}

/** One path of two trees as a markdown table: a row per module, its files in each tree (the path's files, infrastructure apart). */
function markdown(name: string, beforeCommit: string, before: PathReport[], afterCommit: string, after: PathReport[]): string {
  const [a, b] = [before, after].map((reports) => reports.find((r) => r.path === name)!);
  const modules = [...new Set([...a.pathModules, ...b.pathModules])].sort();
  const cell = (r: PathReport, m: string) => {
    const files = r.pathFiles.filter((f) => moduleOf(f) === m).map((f) => f.slice(m.length + 1).replace(/\.ts$/, ''));
    return files.length ? `${files.length}: ${files.join(', ')}` : '';
  };
  const count = (r: PathReport) =>
    `**${r.pathFiles.length} files, ${r.pathFolders.length} folders, ${r.pathModules.length} modules** (+ ${r.infrastructureFiles.length} infrastructure)`;
  return [
    `| ${name.toUpperCase()} path: module | ${beforeCommit} | ${afterCommit} |`,
    '|---|---|---|',
    ...modules.map((m) => `| ${m.replace(/^src\/modules\//, '')} | ${cell(a, m)} | ${cell(b, m)} |`),
    `| in all | ${count(a)} | ${count(b)} |`,
  ].join('\n');
}

/** Files git sees as moved between two commits (`git diff -M`), old path -> new path. */
function renames(tree: string, from: string, to: string): Map<string, string> {
  const out = execFileSync('git', ['diff', '--name-status', '-M', from, to, '--', 'src'], {
    cwd: tree,
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
  const moved = new Map<string, string>();
  for (const line of out.split('\n')) {
    const [status, a, b] = line.split('\t');
    if (status?.startsWith('R') && a && b) moved.set(a, b);
  }
  return moved;
}

function print(tree: string, r: PathReport, listFiles: boolean): string {
  const lines = [
    `${r.path.toUpperCase()} path in ${tree}: ${r.pathFiles.length} files in ${r.pathFolders.length} folders, ${r.pathModules.length} modules` +
      ` (+ ${r.infrastructureFiles.length} infrastructure files; ${r.files.length} in ${r.folders.length} folders in all)`,
    `  modules: ${r.pathModules.map((m) => `${m} ${r.pathFiles.filter((f) => moduleOf(f) === m).length}`).join(', ')}`,
    `  stages: ${r.seeds.map((s) => `${s.stage} = ${s.file}`).join('; ')}`,
  ];
  const byFolder = new Map<string, string[]>();
  for (const f of r.files) byFolder.set(dirname(f), [...(byFolder.get(dirname(f)) ?? []), f]);
  for (const [folder, list] of byFolder) {
    const infra = INFRASTRUCTURE.test(`${folder}/`) ? ' (infrastructure)' : '';
    lines.push(`  ${folder}/${infra}: ${list.length}`);
    if (listFiles) for (const f of list) lines.push(`    ${f.slice(folder.length + 1)}`);
  }
  return lines.join('\n');
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const { values } = parseArgs({
    options: {
      tree: { type: 'string', default: HERE },
      runtime: { type: 'boolean', default: false },
      files: { type: 'boolean', default: false },
      against: { type: 'string' },
      markdown: { type: 'boolean', default: false },
      json: { type: 'string' },
    },
  });
  const trees = [values.against, values.tree].filter((t): t is string => !!t).map((t) => resolve(t));
  const results = trees.map((tree) => {
    const graph = importGraph(tree, values.runtime);
    const commit = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: tree, encoding: 'utf8' }).trim();
    return { tree, commit, reports: Object.keys(PATHS).map((name) => walk(tree, name, graph)) };
  });
  process.stdout.write(`imports: ${values.runtime ? 'runtime only (type-only left out)' : 'all, type-only included'}\n`);
  for (const { tree, commit, reports } of results) {
    process.stdout.write(`\n== tree ${tree} at ${commit}\n`);
    for (const r of reports) process.stdout.write(print(tree, r, values.files) + '\n');
  }
  if (results.length === 2) {
    process.stdout.write(`\n== ${results[0].commit} -> ${results[1].commit}\n`);
    const moved = renames(results[1].tree, results[0].commit, results[1].commit);
    for (const name of Object.keys(PATHS)) {
      const [a, b] = results.map((x) => x.reports.find((r) => r.path === name)!);
      const movedHere = [...moved].filter(([from, to]) => a.pathFiles.includes(from) && b.pathFiles.includes(to));
      const only = (x: PathReport, y: PathReport) =>
        x.pathFiles.filter((f) => !y.pathFiles.includes(f) && !movedHere.some(([from, to]) => f === from || f === to));
      process.stdout.write(
        `${name.toUpperCase()}: ${a.pathFiles.length} files in ${a.pathFolders.length} folders, ${a.pathModules.length} modules -> ` +
          `${b.pathFiles.length} files in ${b.pathFolders.length} folders, ${b.pathModules.length} modules` +
          ` (infrastructure ${a.infrastructureFiles.length} -> ${b.infrastructureFiles.length})\n`,
      );
      for (const [from, to] of movedHere) if (from !== to) process.stdout.write(`  ~ ${from} -> ${to}\n`);
      for (const f of only(a, b)) process.stdout.write(`  - ${f}\n`);
      for (const f of only(b, a)) process.stdout.write(`  + ${f}\n`);
    }
  }
  if (values.markdown && results.length === 2)
    for (const name of Object.keys(PATHS))
      process.stdout.write('\n' + markdown(name, results[0].commit, results[0].reports, results[1].commit, results[1].reports) + '\n');
  if (values.json) writeFileSync(values.json, JSON.stringify({ runtime: values.runtime, trees: results }, null, 2));
}
