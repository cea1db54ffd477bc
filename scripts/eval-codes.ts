// Evaluates the local ICD-10-CM coder on CodiEsp (train split) with the full FY2026 table loaded.
// Prints micro P/R/F1 at full-code and 3-character level for each model level, latency on CodiEsp
// documents and on 50 KB / adversarial notes (target: 50 KB p50 <= 100 ms), build time and RSS.
import { join, resolve } from 'node:path';
import type { CodifyModel } from '../src/engine/engine.js';
import { codifyText } from '../src/engine/local/coder/index.js';
import { CodeTable, type CodeRow } from '../src/terminology/code-table.js';
import { readCodeDescriptions } from '../src/terminology/icd10-file.js';
import { readCodiEspSplit, type CodiEspDoc } from './lib/codiesp.js';

const ICD10_DIR = resolve(process.env.ICD10_DIR ?? '../shared/data/icd10cm');
const CODIESP_DIR = resolve(process.env.CODIESP_DIR ?? '../shared/data/codiesp');
const SPLIT = process.env.CODIESP_SPLIT ?? 'train';
const MODELS: CodifyModel[] = ['fast', 'balanced', 'high-quality'];

interface Counts {
  tp: number;
  fp: number;
  fn: number;
}

function prf(c: Counts): string {
  const p = c.tp / Math.max(1, c.tp + c.fp);
  const r = c.tp / Math.max(1, c.tp + c.fn);
  const f = p + r === 0 ? 0 : (2 * p * r) / (p + r);
  return `P ${p.toFixed(3)}  R ${r.toFixed(3)}  F1 ${f.toFixed(3)}`;
}

function score(pred: Set<string>, gold: Set<string>, c: Counts): void {
  for (const p of pred) if (gold.has(p)) c.tp++;
  else c.fp++;
  for (const g of gold) if (!pred.has(g)) c.fn++;
}

function pct(sorted: number[], q: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;
}

const mb = (n: number) => `${Math.round(n / 1048576)} MB`;

async function loadTable(): Promise<{ table: CodeTable; ms: number; indexMs: number }> {
  const t0 = performance.now();
  const rows: CodeRow[] = [];
  for await (const r of readCodeDescriptions(join(ICD10_DIR, 'icd10cm-codes-2026.txt'))) {
    rows.push({ code: r.code, description: r.description, billable: true });
  }
  const table = new CodeTable(rows);
  const t1 = performance.now();
  void table.index;
  return { table, ms: t1 - t0, indexMs: performance.now() - t1 };
}

function evaluate(table: CodeTable, docs: CodiEspDoc[], model: CodifyModel): void {
  const full: Counts = { tp: 0, fp: 0, fn: 0 };
  const cat: Counts = { tp: 0, fp: 0, fn: 0 };
  const times: number[] = [];
  for (const d of docs) {
    const t = performance.now();
    const out = codifyText(table, d.text, model);
    times.push(performance.now() - t);
    const pred = new Set(out.final_code_assessments.map((a) => a.code));
    score(pred, d.gold, full);
    score(new Set([...pred].map((c) => c.slice(0, 3))), new Set([...d.gold].map((c) => c.slice(0, 3))), cat);
  }
  times.sort((a, b) => a - b);
  console.log(`${model.padEnd(12)} full: ${prf(full)} | category: ${prf(cat)} | latency p50 ${pct(times, 0.5).toFixed(1)} ms p95 ${pct(times, 0.95).toFixed(1)} ms`);
}

/** Whole documents joined in file order up to 51,200 bytes, like bench/codify-latency.ts's note. */
function caseReportNote(docs: CodiEspDoc[]): string {
  let s = '';
  for (let i = 0; Buffer.byteLength(s) < 51_200; i++) s += `${docs[i % docs.length].text}\n`;
  let out = s.slice(0, 51_200);
  while (Buffer.byteLength(out) > 51_200) out = out.slice(0, -1);
  return out;
}

/** Long-note latency per level: the bench's note, the same without line breaks, adversarial input. */
function longNotes(table: CodeTable, docs: CodiEspDoc[]): void {
  const note = caseReportNote(docs);
  const notes: Array<[string, string]> = [
    ['50 KB case reports', note],
    ['50 KB, no line breaks', note.replace(/\s*\n\s*/g, ' ')],
    ['50 KB of one letter', 'a'.repeat(51_200)],
    ['50 KB of 1-letter words', 'b '.repeat(25_600)],
    ['one 20,000-char word', `Known hypertension. ${'x'.repeat(20_000)} Also asthma.`],
  ];
  for (const [name, text] of notes) {
    const cells = MODELS.map((model) => {
      const times: number[] = [];
      for (let i = 0; i < 9; i++) {
        const t = performance.now();
        codifyText(table, text, model);
        times.push(performance.now() - t);
      }
      times.sort((a, b) => a - b);
      return `${model} p50 ${pct(times, 0.5).toFixed(1)} ms (max ${times[times.length - 1].toFixed(1)})`;
    });
    console.log(`${name.padEnd(22)} ${cells.join(' | ')}`);
  }
}

async function main(): Promise<void> {
  const { table, ms, indexMs } = await loadTable();
  console.log(`table: ${table.size} codes, load+build ${ms.toFixed(0)} ms, index ${indexMs.toFixed(0)} ms, RSS ${mb(process.memoryUsage().rss)}`);
  const docs = await readCodiEspSplit(CODIESP_DIR, SPLIT);
  console.log(`codiesp ${SPLIT}: ${docs.length} documents, ${docs.reduce((n, d) => n + d.gold.size, 0)} gold codes`);
  for (const model of MODELS) codifyText(table, docs[0].text, model); // warm-up: lexicon, exact-title hash
  for (const model of MODELS) evaluate(table, docs, model);
  longNotes(table, docs);
  console.log(`peak RSS after evaluation: ${mb(process.memoryUsage().rss)}`);
}

await main();
