/**
 * Scores local SOAP extraction on ACI-Bench (valid and train splits) with ROUGE-1/2/L F1,
 * beside the baseline of copying the whole transcript. Usage: npm run eval:notes
 * Env: ACI_BENCH_DIR (default ../shared/data/aci-bench from the repo root), EVAL_SPLITS (valid,train).
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { extractNote } from '../src/engine/local/extraction/index.js';
import { TEMPLATE_FIELDS } from '../src/engine/templates.js';
import { parseCsvRecords } from './lib/csv.js';
import { rouge } from './lib/rouge.js';

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const dataDir = resolve(repoRoot, process.env.ACI_BENCH_DIR ?? '../shared/data/aci-bench');
const splits = (process.env.EVAL_SPLITS ?? 'valid,train').split(',').map((s) => s.trim()).filter(Boolean);

interface Row {
  system: string;
  r1: number;
  r2: number;
  rl: number;
  words: number;
  ms: number;
}

const words = (s: string) => s.split(/\s+/).filter(Boolean).length;
const mean = (xs: number[]) => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : 0);

function score(system: string, refs: string[], outputs: string[], ms: number[]): Row {
  const s = refs.map((ref, i) => rouge(ref, outputs[i]));
  return {
    system,
    r1: 100 * mean(s.map((x) => x.rouge1.fmeasure)),
    r2: 100 * mean(s.map((x) => x.rouge2.fmeasure)),
    rl: 100 * mean(s.map((x) => x.rougeL.fmeasure)),
    words: mean(outputs.map(words)),
    ms: mean(ms),
  };
}

function printTable(split: string, n: number, rows: Row[]): void {
  console.log(`\n${split} (${n} encounters)`);
  console.log('system            ROUGE-1  ROUGE-2  ROUGE-L   words   ms/note');
  for (const r of rows) {
    console.log(
      `${r.system.padEnd(16)} ${r.r1.toFixed(2).padStart(8)} ${r.r2.toFixed(2).padStart(8)} ${r.rl.toFixed(2).padStart(8)} ${r.words.toFixed(0).padStart(7)} ${r.ms.toFixed(1).padStart(9)}`,
    );
  }
}

function soapText(dialogue: string): string {
  const note = extractNote(dialogue, 'SOAP');
  return TEMPLATE_FIELDS.SOAP.map((f) => note[f]).join('\n\n');
}

function timeLongTranscript(dialogues: string[]): void {
  // A 3,000-word transcript built from real dialogues; the budget is <= 200 ms per note.
  let long = '';
  for (const d of dialogues) {
    if (words(long) >= 3000) break;
    long += d + '\n';
  }
  long = long.split(/\s+/).slice(0, 3000).join(' ').replace(/ \[/g, '\n[');
  const runs: number[] = [];
  for (let i = 0; i < 5; i++) {
    const t0 = performance.now();
    extractNote(long, 'SOAP');
    runs.push(performance.now() - t0);
  }
  runs.sort((a, b) => a - b);
  console.log(`\n3,000-word transcript: median ${runs[2].toFixed(1)} ms, max ${runs[4].toFixed(1)} ms (budget 200 ms)`);
}

function main(): void {
  const t0 = performance.now();
  extractNote('[doctor] warm up', 'SOAP'); // loads the NLP model once, outside the timings
  console.log(`model load ${(performance.now() - t0).toFixed(0)} ms; data ${dataDir}`);
  const all: string[] = [];
  for (const split of splits) {
    const file = resolve(dataDir, `${split}.csv`);
    if (!existsSync(file)) {
      console.error(`missing ${file} (set ACI_BENCH_DIR)`);
      process.exitCode = 1;
      continue;
    }
    const recs = parseCsvRecords(readFileSync(file, 'utf8'));
    const refs = recs.map((r) => r.note);
    const dialogues = recs.map((r) => r.dialogue);
    all.push(...dialogues);
    const ms: number[] = [];
    const outputs = dialogues.map((d) => {
      const start = performance.now();
      const out = soapText(d);
      ms.push(performance.now() - start);
      return out;
    });
    const byDataset = new Map<string, number[]>();
    recs.forEach((r, i) => byDataset.set(r.dataset, [...(byDataset.get(r.dataset) ?? []), i]));
    const rows = [
      score('local SOAP', refs, outputs, ms),
      score('copy transcript', refs, dialogues, dialogues.map(() => 0)),
      ...[...byDataset].map(([ds, idx]) => score(`  ${ds}`, idx.map((i) => refs[i]), idx.map((i) => outputs[i]), idx.map((i) => ms[i]))),
    ];
    printTable(split, recs.length, rows);
  }
  if (all.length) timeLongTranscript(all);
}

main();
