import type { CodeTable } from '../../../terminology/code-table.js';
import { synonymLexicon } from '../../../terminology/starter-catalog.js';
import { wordStems } from '../../../terminology/text-normalize.js';
import { forEachStemPhrase, newMention, type Mention, type SentenceStems } from './mention.js';

export interface CompiledLexicon {
  byStems: Map<string, number[]>; // "stem stem" -> code indexes
  byWord: Map<string, number[]>; // case-sensitive abbreviation -> code indexes
  maxLen: number;
}

const cache = new WeakMap<CodeTable, CompiledLexicon>();

/** The synonym lexicon restricted to codes present in `table` (never a code the table lacks). */
export function compiledLexicon(table: CodeTable): CompiledLexicon {
  let lex = cache.get(table);
  if (lex) return lex;
  lex = { byStems: new Map(), byWord: new Map(), maxLen: 1 };
  for (const entry of synonymLexicon()) {
    const code = table.indexOf(entry.code);
    if (code === undefined) continue;
    if (entry.caseSensitive && !/\s/.test(entry.phrase)) {
      add(lex.byWord, entry.phrase, code);
      continue;
    }
    const stems = entry.phrase.split(/\s+/).flatMap((w) => wordStems(w));
    if (stems.length === 0) continue;
    add(lex.byStems, stems.join(' '), code);
    lex.maxLen = Math.max(lex.maxLen, stems.length);
  }
  cache.set(table, lex);
  return lex;
}

function add(map: Map<string, number[]>, key: string, code: number): void {
  const list = map.get(key);
  if (!list) map.set(key, [code]);
  else if (!list.includes(code)) list.push(code);
}

/** Every synonym occurrence in a sentence; longer phrases weigh more. */
export function matchLexicon(lex: CompiledLexicon, words: readonly string[], st: SentenceStems, sentence: number): Mention[] {
  const out: Mention[] = [];
  for (let i = 0; i < words.length; i++) {
    const codes = lex.byWord.get(words[i]);
    if (codes)
      for (const code of codes) out.push(newMention({ code, sentence, start: i, end: i, source: 'lexicon', weight: 5, score: 0.85 }));
  }
  forEachStemPhrase(st, lex.byStems, lex.maxLen, (codes, start, end, len) => {
    for (const code of codes) out.push(newMention({ code, sentence, start, end, source: 'lexicon', weight: 4 + 3 * len, score: 0.92 }));
  });
  return out;
}
