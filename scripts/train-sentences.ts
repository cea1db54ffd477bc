/**
 * Trains the sentence model on ACI-Bench train and writes src/engine/local/extraction/weights.json
 * (deterministic: the same data gives the same file). Usage: npm run train:sentences
 * Env: ACI_BENCH_DIR (default ../shared/data/aci-bench), TRAIN_SPLITS (default train).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseCsvRecords } from './lib/csv.js';
import { CLASSES, samples, train, type Encounter } from './lib/sentence-training.js';

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const dataDir = resolve(repoRoot, process.env.ACI_BENCH_DIR ?? '../shared/data/aci-bench');
const splits = (process.env.TRAIN_SPLITS ?? 'train')
  .split(',')
  .map((s) => s.trim())
  .filter(Boolean);

export function loadEncounters(split: string): Encounter[] {
  return parseCsvRecords(readFileSync(resolve(dataDir, `${split}.csv`), 'utf8')).map((r) => ({
    id: r.encounter_id,
    dialogue: r.dialogue,
    note: r.note,
  }));
}

function main(): void {
  const encounters = splits.flatMap(loadEncounters);
  const data = encounters.flatMap(samples);
  const dist = CLASSES.map((c, i) => `${c} ${data.filter((d) => d.label === i).length}`).join(', ');
  const model = train(data);
  const out = resolve(repoRoot, 'src/engine/local/extraction/weights.json');
  writeFileSync(out, JSON.stringify(model) + '\n');
  console.log(
    `${encounters.length} encounters, ${data.length} sentences (${dist}); ${Object.keys(model.weights).length} features -> ${out}`,
  );
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) main();
