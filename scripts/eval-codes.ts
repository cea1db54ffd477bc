// Evaluates the local ICD-10-CM coder on CodiEsp with the full FY2026 table loaded. On the train
// split it scores the documents the learned artifacts did not see (the held-apart fifth, see
// scripts/train-coder.ts); CODIESP_SPLIT=dev/test (or ALL=1) scores every document of the split.
// Prints micro P/R/F1 at full-code and 3-character level per model level, a reliability table
// (confidence band, count, precision), latency on CodiEsp documents and on 50 KB / adversarial
// notes, build time and RSS.
import type { CodifyModel } from '../src/engine/engine.js';
import { codifyText } from '../src/engine/local/coder/index.js';
import { ARTIFACTS } from '../src/engine/local/coder/learned/artifacts.js';
import type { CodeTable } from '../src/terminology/code-table.js';
import { readCodiEspSplit, type CodiEspDoc } from './lib/codiesp.js';
import { CODIESP_DIR, loadFullTable } from './lib/full-table.js';

const SPLIT = process.env.CODIESP_SPLIT ?? 'train';
const MODELS: CodifyModel[] = ['fast', 'balanced', 'high-quality'];
const BANDS: Array<[number, number]> = [
  [0, 50],
  [50, 70],
  [70, 80],
  [80, 90],
  [90, 101],
];

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
  for (const p of pred)
    if (gold.has(p)) c.tp++;
    else c.fp++;
  for (const g of gold) if (!pred.has(g)) c.fn++;
}

function pct(sorted: number[], q: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;
}

const mb = (n: number) => `${Math.round(n / 1048576)} MB`;

function evaluate(table: CodeTable, docs: CodiEspDoc[], model: CodifyModel) {
  const full: Counts = { tp: 0, fp: 0, fn: 0 };
  const cat: Counts = { tp: 0, fp: 0, fn: 0 };
  const times: number[] = [];
  const bands = BANDS.map(() => ({ n: 0, right: 0 }));
  for (const d of docs) {
    const t = performance.now();
    const out = codifyText(table, d.text, model);
    times.push(performance.now() - t);
    for (const a of out.final_code_assessments) {
      const b = bands[BANDS.findIndex(([lo, hi]) => a.confidence_percent >= lo && a.confidence_percent < hi)];
      b.n++;
      b.right += Number(d.gold.has(a.code));
    }
    const pred = new Set(out.final_code_assessments.map((a) => a.code));
    score(pred, d.gold, full);
    score(new Set([...pred].map((c) => c.slice(0, 3))), new Set([...d.gold].map((c) => c.slice(0, 3))), cat);
  }
  times.sort((a, b) => a - b);
  console.log(
    `${model.padEnd(12)} full: ${prf(full)} | category: ${prf(cat)} | latency p50 ${pct(times, 0.5).toFixed(1)} ms p95 ${pct(times, 0.95).toFixed(1)} ms`,
  );
  return bands;
}

type Bands = ReturnType<typeof evaluate>;

/** Per level: how many final codes fell in each confidence band, and how many of them were right. */
function reliability(perModel: Array<[CodifyModel, Bands]>): void {
  console.log('reliability of final codes (confidence band: count, precision)');
  console.log(`${'band'.padEnd(10)} ${perModel.map(([m]) => m.padEnd(20)).join(' ')}`);
  BANDS.forEach(([lo, hi], i) => {
    const label = `${lo}-${Math.min(hi, 100)}`.padEnd(10);
    const cells = perModel.map(([, b]) =>
      `${String(b[i].n).padStart(5)}  ${b[i].n ? (b[i].right / b[i].n).toFixed(3) : '  -  '}`.padEnd(20),
    );
    console.log(`${label} ${cells.join(' ')}`);
  });
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
  const { table, ms, indexMs } = await loadFullTable();
  console.log(
    `table: ${table.size} codes, load+build ${ms.toFixed(0)} ms, index ${indexMs.toFixed(0)} ms, RSS ${mb(process.memoryUsage().rss)}`,
  );
  const split = await readCodiEspSplit(CODIESP_DIR, SPLIT);
  const seen = new Set(ARTIFACTS?.trainIds ?? []);
  const heldApart = SPLIT === 'train' && !process.env.ALL;
  const docs = heldApart ? split.filter((d) => !seen.has(d.id)) : split;
  const which = heldApart ? `the ${docs.length} documents the learned artifacts did not see` : `all ${docs.length} documents`;
  console.log(`codiesp ${SPLIT}: ${which}, ${docs.reduce((n, d) => n + d.gold.size, 0)} gold codes`);
  if (ARTIFACTS) console.log(`learned artifacts: ${ARTIFACTS.trainedOn}; ${ARTIFACTS.lexicon.length} phrases`);
  for (const model of MODELS) codifyText(table, docs[0].text, model); // warm-up: lexicon, exact-title hash
  const perModel = MODELS.map((model) => [model, evaluate(table, docs, model)] as [CodifyModel, Bands]);
  reliability(perModel);
  longNotes(table, split);
  console.log(`peak RSS after evaluation: ${mb(process.memoryUsage().rss)}`);
}

await main();
