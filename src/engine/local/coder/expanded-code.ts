import type { CodeTable } from '../../../terminology/code-table.js';
import type { IndexTabular } from '../../../terminology/index-tabular.js';
import { wordStems } from '../../../terminology/text-normalize.js';
import { assertWords } from './assertions.js';
import type { Sentence } from './sentence-split.js';

// Title words that state nothing a note must say.
const NEUTRAL = new Set(
  ['unspecified', 'other', 'specified', 'of', 'and', 'or', 'the', 'with', 'nec', 'nos', 'elsewhere', 'classified', 'not']
    .flatMap((w) => wordStems(w))
    .concat(['of', 'and', 'or', 'the', 'with']),
);

interface Where {
  table: CodeTable;
  it?: IndexTabular;
  defaults?: readonly string[];
}

/**
 * The FY2026 child of a code the FY2023 Tabular holds as a billable leaf and the table in force
 * expanded into a category (Z86.010 "colonic polyps" -> Z86.0100-Z86.0109): the child whose title
 * states most of what `sentences` say, a title word they do not say counting half
 * against it; the first in code order (its unspecified child) when none states more. Undefined
 * when the code is not such a leaf.
 */
export function expandedChild(ctx: Where, code: string, sentences: readonly Sentence[]): number | undefined {
  const { table, it } = ctx;
  if (!it || code.length < 3 || !it.inTabular(code)) return undefined;
  const rows = table.descendantsOf(code).filter((r) => r.billable && r.code !== code);
  // (The Tabular reads a 7th character onto its 6-character code: a child so read is new unless the code has a 7th-character rule.)
  const known = (c: string) =>
    c.length === 7 && c.slice(0, 6).replace(/X+$/, '') === code ? it.seventhOf(code) !== undefined : it.inTabular(c);
  if (rows.length === 0 || rows.some((r) => known(r.code))) return undefined;
  const present = new Set<string>(ctx.defaults ?? []);
  for (const s of sentences) {
    const assertions = assertWords(s.words, s.lower);
    s.lower.forEach((w, i) => {
      if (assertions[i] !== 'negated') for (const st of wordStems(w)) present.add(st);
    });
  }
  let best: number | undefined;
  let bestScore = -Infinity;
  for (const r of rows) {
    let score = 0;
    for (const st of new Set(wordStems(r.description.replace(/\([^)]*\)/g, ' ')))) {
      if (NEUTRAL.has(st)) continue;
      score += present.has(st) ? 1 : -0.5;
    }
    if (score > bestScore) {
      bestScore = score;
      best = table.indexOf(r.code);
    }
  }
  return best;
}
