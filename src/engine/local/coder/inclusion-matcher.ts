import type { CodeTable } from '../../../terminology/code-table.js';
import type { IndexTabular } from '../../../terminology/index-tabular.js';
import { wordStems } from '../../../terminology/text-normalize.js';
import { forEachStemPhrase, newMention, type Mention, type SentenceStems } from './mention.js';

export interface CompiledInclusions {
  byStems: Map<string, number>; // "stem stem" -> code index
  maxLen: number;
  /** inclusion terms that are one acronym ("PRES" at I67.83): stated only as that word, in capitals */
  acronyms: Map<string, number>;
}

const cache = new WeakMap<IndexTabular, WeakMap<CodeTable, CompiledInclusions>>();

/**
 * The Tabular's inclusion terms (I.A.11: the conditions a code is used for beyond its title:
 * "Lumbago NOS" and "Loin pain" at M54.50, "Lack of energy" at R53.83) as names of their code,
 * for billable codes of the table in force. Nonessential words in parentheses and "NOS" are not
 * required; a phrase the Tabular gives to two codes names neither.
 */
export function compiledInclusions(table: CodeTable, it: IndexTabular): CompiledInclusions {
  let byTable = cache.get(it);
  if (!byTable) cache.set(it, (byTable = new WeakMap()));
  let out = byTable.get(table);
  if (out) return out;
  out = { byStems: new Map(), maxLen: 1, acronyms: new Map() };
  const ambiguous = new Set<string>();
  for (const [code, notes] of it.notesByCode()) {
    const index = table.indexOf(code.replace('.', ''));
    if (index === undefined || !table.billableAt(index)) continue;
    for (const n of notes) {
      // (Excludes notes as names of the code they send to were tried: on the CodiEsp fold they
      // cost 0.047 precision for no recall, their texts being classes more than names.)
      if (n.kind !== 'inc' || /[:;]|\bclassified elsewhere\b/i.test(n.text)) continue;
      const phrase = n.text.replace(/\([^)]*\)|\[[^\]]*\]/g, ' ').replace(/\bNOS\b/g, ' ');
      // An acronym is a word of its own: "PRES" is not the "pre" of "pre-employment".
      if (/^\s*[A-Z][A-Z0-9]+\s*$/.test(phrase)) {
        out.acronyms.set(phrase.trim(), index);
        continue;
      }
      const stems = phrase.split(/[\s,]+/).flatMap((w) => wordStems(w));
      if (stems.length === 0 || stems.length > 6) continue;
      const key = stems.join(' ');
      const prev = out.byStems.get(key);
      if (prev !== undefined && prev !== index) ambiguous.add(key);
      out.byStems.set(key, index);
      out.maxLen = Math.max(out.maxLen, stems.length);
    }
  }
  for (const key of ambiguous) out.byStems.delete(key);
  byTable.set(table, out);
  return out;
}

/**
 * Inclusion terms a sentence states, read like a title stated whole; never across the items of a
 * list ("Hypertension, chronic kidney disease" is two conditions, not "hypertensive chronic kidney disease").
 */
export function matchInclusions(
  inc: CompiledInclusions,
  st: SentenceStems,
  lower: readonly string[],
  sentence: number,
  words?: readonly string[],
): Mention[] {
  const out: Mention[] = [];
  if (words && inc.acronyms.size)
    for (let k = 0; k < words.length; k++) {
      // An acronym is a capital and capitals or digits: any other word is passed without a look-up.
      if (!maybeAcronym(words[k])) continue;
      const code = inc.acronyms.get(words[k]);
      if (code !== undefined)
        out.push(newMention({ code, sentence, start: k, end: k, source: 'description', weight: 7, score: 1, inclusion: true }));
    }
  forEachStemPhrase(st, inc.byStems, inc.maxLen, (code, start, end, len) => {
    for (let k = start + 1; k < end; k++) if (/^[,;:()]$/.test(lower[k])) return;
    out.push(newMention({ code, sentence, start, end, source: 'description', weight: 4 + 3 * len, score: 1, inclusion: true }));
  });
  return out;
}

/** Whether a word starts as an acronym key does: a capital, then a capital or a digit. */
function maybeAcronym(w: string): boolean {
  const a = w.charCodeAt(0);
  const b = w.charCodeAt(1);
  return a >= 65 && a <= 90 && ((b >= 65 && b <= 90) || (b >= 48 && b <= 57));
}
