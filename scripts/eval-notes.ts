/**
 * Scores local SOAP extraction on ACI-Bench by the paper's scorer (no stemming, ROUGE-L =
 * rougeLsum), overall and per SOAP section, beside copying the whole transcript and the rules
 * without the learned sentence model. The committed weights are trained on `train` only, so
 * `valid` is a held-apart fold; `--cv K` adds K-fold cross-validation over train+valid, each fold
 * scored by a model trained without it.
 *
 *   npm run eval:notes [-- --cv 5] [--splits valid,train]
 * Env: ACI_BENCH_DIR (default ../shared/data/aci-bench from the repo root).
 */
import { parseArgs } from 'node:util';
import { extractNote, type SoapNote } from '../src/engine/local/extraction/index.js';
import type { SentenceModel } from '../src/engine/local/extraction/learned.js';
import { noteSections, SOAP_SECTIONS, type SoapSection } from './lib/note-sections.js';
import { paperRouge, rouge } from './lib/rouge.js';
import { samples, train, type Encounter } from './lib/sentence-training.js';
import { loadEncounters } from './train-sentences.js';

const { values: a } = parseArgs({ options: { cv: { type: 'string', default: '0' }, splits: { type: 'string', default: 'valid,train' } } });

const words = (s: string) => s.split(/\s+/).filter(Boolean).length;
const mean = (xs: number[]) => (xs.length ? xs.reduce((x, y) => x + y, 0) / xs.length : 0);
const pct = (x: number) => (100 * x).toFixed(2).padStart(7);
const RULES_ONLY: SentenceModel = { classes: ['none', ...SOAP_SECTIONS], weights: {} };

interface Output {
  text: string;
  sections: Record<SoapSection, string>;
  ms: number;
}

function run(encs: Encounter[], model?: SentenceModel): Output[] {
  return encs.map((e) => {
    const t0 = performance.now();
    const note = extractNote(e.dialogue, 'SOAP', { model }) as unknown as SoapNote;
    const ms = performance.now() - t0;
    return { text: SOAP_SECTIONS.map((s) => note[s]).join('\n\n'), sections: { ...note }, ms };
  });
}

function row(name: string, encs: Encounter[], outs: { text: string }[], ms = 0): string {
  const s = encs.map((e, i) => paperRouge(e.note, outs[i].text));
  const stemmed = mean(encs.map((e, i) => rouge(e.note, outs[i].text).rouge1.fmeasure));
  return `${name.padEnd(22)}${pct(mean(s.map((x) => x.rouge1.fmeasure)))}${pct(mean(s.map((x) => x.rouge2.fmeasure)))}${pct(mean(s.map((x) => x.rougeL.fmeasure)))}${pct(stemmed)}${mean(
    outs.map((o) => words(o.text)),
  )
    .toFixed(0)
    .padStart(7)}${(ms ? ms.toFixed(1) : '-').padStart(8)}`;
}

function sectionRows(encs: Encounter[], outs: Output[]): string[] {
  return SOAP_SECTIONS.map((sec) => {
    const idx = encs.map((e, i) => ({ ref: noteSections(e.note)[sec], out: outs[i].sections[sec] })).filter((x) => x.ref.trim());
    const s = idx.map((x) => paperRouge(x.ref, x.out));
    return `  ${sec.padEnd(20)}${pct(mean(s.map((x) => x.rouge1.fmeasure)))}${pct(mean(s.map((x) => x.rouge2.fmeasure)))}${pct(mean(s.map((x) => x.rougeL.fmeasure)))}   (n=${idx.length})`;
  });
}

const HEADER = 'system                 ROUGE-1 ROUGE-2 ROUGE-L  R1-stem  words   ms';

function report(title: string, encs: Encounter[], outs: Output[], extra: string[] = []): void {
  console.log(`\n${title} (${encs.length} encounters; paper scorer: no stemming, ROUGE-L = rougeLsum; R1-stem = the old stemmed figure)`);
  console.log(HEADER);
  console.log(row('local SOAP', encs, outs, mean(outs.map((o) => o.ms))));
  for (const line of extra) console.log(line);
  console.log('per section (reference note split by its headings):');
  for (const line of sectionRows(encs, outs)) console.log(line);
}

function crossValidate(encs: Encounter[], k: number): void {
  const outs: Output[] = new Array(encs.length);
  for (let f = 0; f < k; f++) {
    const held = encs.map((_, i) => i).filter((i) => i % k === f);
    const model = train(encs.filter((_, i) => i % k !== f).flatMap(samples));
    run(
      held.map((i) => encs[i]),
      model,
    ).forEach((o, j) => (outs[held[j]] = o));
  }
  report(`${k}-fold cross-validation over train+valid (each fold scored by a model trained without it)`, encs, outs, [
    row('rules only', encs, run(encs, RULES_ONLY)),
  ]);
}

function timeLongTranscript(encs: Encounter[]): void {
  let long = '';
  for (const e of encs) {
    if (words(long) >= 3000) break;
    long += e.dialogue + '\n';
  }
  long = long.split(/\s+/).slice(0, 3000).join(' ').replace(/ \[/g, '\n[');
  const runs: number[] = [];
  for (let i = 0; i < 11; i++) {
    const t0 = performance.now();
    extractNote(long, 'SOAP');
    runs.push(performance.now() - t0);
  }
  runs.sort((x, y) => x - y);
  console.log(`\n3,000-word transcript: median ${runs[5].toFixed(1)} ms, max ${runs[10].toFixed(1)} ms (budget 100 ms)`);
}

function main(): void {
  const t0 = performance.now();
  extractNote('[doctor] warm up', 'SOAP'); // loads the NLP model once, outside the timings
  console.log(`model load ${(performance.now() - t0).toFixed(0)} ms`);
  const bySplit = new Map(a.splits.split(',').map((s) => [s.trim(), loadEncounters(s.trim())] as const));
  for (const [split, encs] of bySplit) {
    const outs = run(encs);
    const note = split === 'train' ? ' - seen by the weights' : ' - held apart: the weights never saw it';
    report(`${split}${note}`, encs, outs, [
      row('rules only', encs, run(encs, RULES_ONLY)),
      row(
        'copy transcript',
        encs,
        encs.map((e) => ({ text: e.dialogue })),
      ),
    ]);
  }
  const k = Number(a.cv);
  if (k > 1) crossValidate([...(bySplit.get('train') ?? loadEncounters('train')), ...(bySplit.get('valid') ?? loadEncounters('valid'))], k);
  timeLongTranscript([...bySplit.values()].flat());
}

main();
