// The coder's output, byte for byte, over every note we hold: a change that should only make the
// coder faster must leave this unchanged. Codes each CodiEsp train document, every guideline case
// (tuned and held apart), the fixture visits and the bench's 50 KB note at the three levels, with
// two tables (the shipped FY2026 release, and the CMS file with its category headers as an import
// stores it), and writes one JSON line per (table, level, note): the whole result (codes,
// descriptions, justifications, confidence, evidence offsets, traits, discards).
//
//   tsx scripts/coder-diff.ts --root <tree> --out <file>       code with <tree>'s coder (default: this one)
//   tsx scripts/coder-diff.ts --compare <a> <b>                 count and show the notes whose output differs
//
// For a baseline from another commit: `git archive <commit> | tar -x -C /tmp/base`, link this
// tree's node_modules into it, and run with --root /tmp/base. The notes always come from this tree.
import { createWriteStream, existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import type { CodifyModel } from '../src/engine/engine.js';
import { HELD_APART_CASES } from '../test/engine/fixtures/official-guideline-cases-held-apart.js';
import { HELD_APART_2_CASES } from '../test/engine/fixtures/official-guideline-cases-held-apart-2.js';
import { OFFICIAL_CASES } from '../test/engine/fixtures/official-guideline-cases.js';
import { FRESH } from '../test/engine/fixtures/fresh-visits.js';
import { SHAPES } from '../test/engine/fixtures/visit-shapes.js';
import { HELD_OUT, VISITS } from '../test/engine/fixtures/visits.js';
import { note50k } from '../bench/lib/note-50k.js';
import { readCodiEspSplit } from './lib/codiesp.js';
import { CODIESP_DIR, importedTableRows } from './lib/full-table.js';

const MODELS: CodifyModel[] = ['fast', 'balanced', 'high-quality'];

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { root: { type: 'string', default: '.' }, out: { type: 'string' }, compare: { type: 'boolean', default: false } },
});

async function notes(): Promise<Array<[string, string]>> {
  const out: Array<[string, string]> = [['bench-50kb', note50k(join(CODIESP_DIR, 'train/text_files_en'))]];
  for (const v of [...VISITS, ...HELD_OUT, ...FRESH, ...SHAPES]) out.push([`visit:${v.name}`, v.transcript]);
  OFFICIAL_CASES.forEach((c, i) => out.push([`guideline:${i}:${c.rule}`, c.note]));
  HELD_APART_CASES.forEach((c, i) => out.push([`held-apart:${i}:${c.rule}`, c.note]));
  HELD_APART_2_CASES.forEach((c, i) => out.push([`held-apart-2:${i}:${c.rule}`, c.note]));
  for (const d of await readCodiEspSplit(CODIESP_DIR, 'train')) out.push([`codiesp:${d.id}`, d.text]);
  return out;
}

async function write(root: string, file: string): Promise<void> {
  const at = (p: string) => import(pathToFileURL(join(root, p)).href);
  const { codifyText } = await at('src/engine/local/coder/index.ts');
  const { CodeTable } = await at('src/terminology/code-table.ts');
  const { shippedCodeTable } = await at('src/terminology/shipped-release.ts');
  const rows = await importedTableRows();
  const tables: Array<[string, unknown]> = [
    ['shipped', shippedCodeTable()],
    ['imported', new CodeTable(rows)],
  ];
  const list = await notes();
  const out = createWriteStream(file);
  const t0 = performance.now();
  for (const [tableName, table] of tables)
    for (const model of MODELS)
      for (const [name, text] of list) {
        const result = codifyText(table, text, model);
        out.write(`${JSON.stringify({ key: `${tableName}|${model}|${name}`, result })}\n`);
      }
  await new Promise<void>((done) => out.end(done));
  console.log(
    `${list.length} notes x ${MODELS.length} levels x ${tables.length} tables -> ${file} (${((performance.now() - t0) / 1000).toFixed(1)} s)`,
  );
}

function compare(a: string, b: string): void {
  const read = (f: string) =>
    new Map(
      readFileSync(f, 'utf8')
        .trimEnd()
        .split('\n')
        .map((l) => [JSON.parse(l).key as string, l]),
    );
  const [x, y] = [read(a), read(b)];
  const keys = new Set([...x.keys(), ...y.keys()]);
  const differ = [...keys].filter((k) => x.get(k) !== y.get(k));
  for (const k of differ.slice(0, 20)) {
    console.log(`differs: ${k}`);
    const [p, q] = [x.get(k) ?? '(missing)', y.get(k) ?? '(missing)'];
    let i = 0;
    while (i < p.length && p[i] === q[i]) i++;
    console.log(`  ${a}: …${p.slice(Math.max(0, i - 80), i + 120)}`);
    console.log(`  ${b}: …${q.slice(Math.max(0, i - 80), i + 120)}`);
  }
  console.log(`${keys.size} outputs compared, ${differ.length} differ`);
  if (differ.length) process.exitCode = 1;
}

if (values.compare) compare(positionals[0], positionals[1]);
else {
  if (!values.out) throw new Error('--out <file> is required');
  const root = resolve(values.root);
  if (!existsSync(join(root, 'src/engine/local/coder/index.ts'))) throw new Error(`no coder under ${root}`);
  await write(root, resolve(values.out));
}
