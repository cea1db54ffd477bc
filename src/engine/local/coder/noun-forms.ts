import type { CodeTable } from '../../../terminology/code-table.js';
import { wordStems } from '../../../terminology/text-normalize.js';

// Adjective endings a stem keeps ("tibial", "ulnar", "tophac-eous", "sclerot-ic") and the noun
// endings of the same word ("tibia", "radius", "tophus", "sclerosis"). A stem whose adjective
// ending the stemmer took ("hypoglycem-ic") takes a noun ending as it stands ("hypoglycemia").
const NOUNS_OF: ReadonlyArray<[RegExp, readonly string[]]> = [
  [/(al|ar)$/, ['a', 'us', 'um', 'e']],
  [/ac$/, ['us']],
  [/ot$/, ['osis']],
];
const AS_IT_STANDS = ['a', 'us', 'ia'];
/** A base shorter than this names too many words to read one noun from ("or-al"). */
const MIN_BASE = 3;
const NONE: readonly string[] = Object.freeze([]);

const cache = new WeakMap<CodeTable, Map<string, readonly string[]>>();

/**
 * The noun forms of an adjective stem that the code titles use ("tibial": tibia; "radial":
 * radius; "hypoglycemic": hypoglycemia; "pneumococcal": pneumococcus), so a subterm named by its
 * noun in the Index ("Fracture, tibia"; "Diabetes, type 2, with hypoglycemia") meets the note's
 * adjective, as a coder reads it; and its American spelling. Only stems the titles hold; read once per stem.
 */
export function nounFormsOf(table: CodeTable, stem: string): readonly string[] {
  let byStem = cache.get(table);
  if (!byStem) cache.set(table, (byStem = new Map()));
  let out = byStem.get(stem);
  if (out !== undefined) return out;
  const found = new Set<string>();
  const tries: Array<[string, readonly string[]]> = [[stem, AS_IT_STANDS]];
  for (const [ending, nouns] of NOUNS_OF) {
    const m = ending.exec(stem);
    if (m) tries.push([stem.slice(0, -m[0].length), nouns]);
  }
  // The British spelling of a stem the normalizer does not map ("haemophilus": Hemophilus).
  const american = stem.replace(/ae|oe/g, 'e');
  if (american !== stem && table.index.stemId(american) !== undefined) found.add(american);
  for (const [base, nouns] of tries) {
    if (base.length < MIN_BASE || !/^[a-z]+$/.test(base)) continue;
    for (const ending of nouns) {
      const [noun] = wordStems(base + ending);
      if (noun && noun !== stem && noun.length > MIN_BASE && table.index.stemId(noun) !== undefined) found.add(noun);
    }
  }
  out = found.size === 0 ? NONE : [...found];
  byStem.set(stem, out);
  return out;
}
