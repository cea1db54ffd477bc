/**
 * Trains the sentence model on ACI-Bench train and writes src/engine/local/extraction/weights.json
 * (deterministic: the same data gives the same file).
 *   npm run train:sentences [-- --feedback export.json] [--out weights.json]
 * `--feedback FILE`: an export of GET /api/v1/feedback (`{items:[...]}`, a JSON array or JSON lines);
 * the clinicians' signed sections and moved sentences are added to the training data (scripts/lib/feedback.ts).
 * Env: ACI_BENCH_DIR (default ../shared/data/aci-bench), TRAIN_SPLITS (default train; empty: feedback only).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { feedbackSamples, readFeedback } from './lib/feedback.js';
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
  const { values: a } = parseArgs({ options: { feedback: { type: 'string' }, out: { type: 'string' } } });
  const encounters = splits.flatMap(loadEncounters);
  const items = a.feedback ? readFeedback(readFileSync(resolve(a.feedback), 'utf8')) : [];
  const fromFeedback = feedbackSamples(items);
  const data = [...encounters.flatMap(samples), ...fromFeedback];
  const dist = CLASSES.map((c, i) => `${c} ${data.filter((d) => d.label === i).length}`).join(', ');
  const model = train(data);
  const out = a.out ? resolve(a.out) : resolve(repoRoot, 'src/engine/local/extraction/weights.json');
  writeFileSync(out, JSON.stringify(model) + '\n');
  console.log(
    `${encounters.length} encounters, ${items.length} feedback notes (${fromFeedback.length} samples), ${data.length} sentences (${dist}); ${Object.keys(model.weights).length} features -> ${out}`,
  );
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) main();
