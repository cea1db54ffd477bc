import type { CodeTable } from '../../../terminology/code-table.js';
import { wordStems } from '../../../terminology/text-normalize.js';

// Adjective endings a stem keeps ("tibial", "ulnar", "tophac-eous", "sclerot-ic") and the noun
// endings of the same word ("tibia", "radius", "rectum", "tophus", "sclerosis"); and the
// "-emic" adjective whose ending the stemmer took ("hypoglycem-ic"): the "-emia" noun.
const NOUNS_OF: ReadonlyArray<[RegExp, string, readonly string[]]> = [
  [/(al|ar)$/, '', ['a', 'us', 'um']],
  [/ac$/, '', ['us']],
  [/ot$/, '', ['osis']],
  [/em$/, 'em', ['ia']],
];
/** A base shorter than this names too many words to read one noun from ("or-al"). */
const MIN_BASE = 3;
const NONE: readonly string[] = Object.freeze([]);

interface Forms {
  byStem: Map<string, readonly string[]>;
  /** the same, by the stem's number (stemNumber): a note's stems are read by number, without hashing a name */
  byNumber: Array<readonly string[] | undefined>;
}
const cache = new WeakMap<CodeTable, Forms>();
// The table last asked about and its forms (every stem of every note is asked about).
let lastTable: CodeTable | undefined;
let last: Forms = { byStem: new Map(), byNumber: [] };

/**
 * The noun forms of an adjective stem that the code titles use ("tibial": tibia; "radial":
 * radius; "hypoglycemic": hypoglycemia; "pneumococcal": pneumococcus), so a subterm named by its
 * noun in the Index ("Fracture, tibia"; "Diabetes, type 2, with hypoglycemia") meets the note's
 * adjective, as a coder reads it; and its American spelling. Only stems the titles hold; read once per stem.
 * `number` is the stem's number (stemNumber), -1 when it has none.
 */
export function nounFormsOf(table: CodeTable, stem: string, number = -1): readonly string[] {
  if (table !== lastTable) {
    let forms = cache.get(table);
    if (!forms) cache.set(table, (forms = { byStem: new Map(), byNumber: [] }));
    lastTable = table;
    last = forms;
  }
  const { byStem, byNumber } = last;
  if (number >= 0) return (byNumber[number] ??= formsOf(table, byStem, stem));
  return formsOf(table, byStem, stem);
}

/** nounFormsOf by name: read once per stem. */
function formsOf(table: CodeTable, byStem: Map<string, readonly string[]>, stem: string): readonly string[] {
  let out = byStem.get(stem);
  if (out !== undefined) return out;
  const found = new Set<string>();
  const tries: Array<[string, readonly string[]]> = [];
  for (const [ending, keep, nouns] of NOUNS_OF) {
    const m = ending.exec(stem);
    if (m) tries.push([stem.slice(0, -m[0].length) + keep, nouns]);
  }
  // A stem the stemmer took "-al" from ("humer-al", "embol-ic"): the "-us" noun.
  if (/[^aeiouc]$/.test(stem)) tries.push([stem, ['us']]);
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
