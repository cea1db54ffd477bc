import type { CodeTable } from '../../../terminology/code-table.js';
import type { LearnedEntry } from './learned/types.js';
import { forEachStemPhrase, newMention, type Mention, type SentenceStems } from './mention.js';

export interface CompiledLearned {
  byStems: Map<string, Array<[code: number, precision: number]>>;
  maxLen: number;
}

const cache = new WeakMap<CodeTable, WeakMap<readonly LearnedEntry[], Map<number, CompiledLearned>>>();

/** The learned phrases restricted to codes of `table`, cached per table and lexicon. */
export function compiledLearned(table: CodeTable, entries: readonly LearnedEntry[], minPrecision = 0): CompiledLearned {
  let perTable = cache.get(table);
  if (!perTable) cache.set(table, (perTable = new WeakMap()));
  let perLexicon = perTable.get(entries);
  if (!perLexicon) perTable.set(entries, (perLexicon = new Map()));
  let out = perLexicon.get(minPrecision);
  if (out) return out;
  out = { byStems: new Map(), maxLen: 1 };
  for (const [stems, code, precision] of entries) {
    if (precision < minPrecision) continue;
    const i = table.indexOf(code);
    if (i === undefined || !table.billableAt(i)) continue;
    const list = out.byStems.get(stems) ?? [];
    list.push([i, precision]);
    out.byStems.set(stems, list);
    out.maxLen = Math.max(out.maxLen, stems.split(' ').length);
  }
  perLexicon.set(minPrecision, out);
  return out;
}

/** Every learned phrase in a sentence (stem n-grams, at most maxLen long: linear in the sentence). */
export function matchLearned(lex: CompiledLearned, st: SentenceStems, sentence: number): Mention[] {
  const out: Mention[] = [];
  forEachStemPhrase(st, lex.byStems, lex.maxLen, (codes, start, end, len) => {
    for (const [code, precision] of codes)
      out.push(newMention({ code, sentence, start, end, source: 'learned', weight: 4 + 3 * len, score: precision }));
  });
  return out;
}
