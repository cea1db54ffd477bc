/**
 * Counts the sentences of the local engine's notes a clinician would rewrite (scripts/lib/scribe-check.ts):
 * on ACI-Bench valid (or --splits) and on the visits written for this project.
 *   npm run scribe-check [-- --splits valid --examples]
 */
import { parseArgs } from 'node:util';
import { extractNote } from '../src/engine/local/extraction/index.js';
import { PLACEHOLDERS } from '../src/engine/local/extraction/assemble.js';
import { FRESH } from '../test/engine/fixtures/fresh-visits.js';
import { SHAPES } from '../test/engine/fixtures/visit-shapes.js';
import { HELD_OUT, VISITS } from '../test/engine/fixtures/visits.js';
import { countRewrites, formatRewrites } from './lib/scribe-check.js';
import { loadEncounters } from './train-sentences.js';

const { values: a } = parseArgs({
  options: { splits: { type: 'string', default: 'valid' }, examples: { type: 'boolean', default: false } },
});
const placeholders = Object.values(PLACEHOLDERS);
const notes = (transcripts: string[]) => transcripts.map((t) => extractNote(t, 'SOAP') as Record<string, string>);

for (const split of a.splits
  .split(',')
  .map((s) => s.trim())
  .filter(Boolean)) {
  const encs = loadEncounters(split);
  console.log(
    formatRewrites(
      `ACI-Bench ${split} (${encs.length} notes)`,
      countRewrites(notes(encs.map((e) => e.dialogue)), placeholders),
      a.examples,
    ),
  );
}
const own = [...VISITS, ...HELD_OUT, ...FRESH];
console.log(formatRewrites(`project visits (${own.length})`, countRewrites(notes(own.map((v) => v.transcript)), placeholders), a.examples));
console.log(
  formatRewrites(`visit shapes (${SHAPES.length})`, countRewrites(notes(SHAPES.map((v) => v.transcript)), placeholders), a.examples),
);
