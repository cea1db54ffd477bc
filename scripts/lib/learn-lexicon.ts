import type { LearnedEntry } from '../../src/engine/local/coder/learned/types.js';
import { assertWords } from '../../src/engine/local/coder/assertions.js';
import { splitSentences } from '../../src/engine/local/coder/sentence-split.js';
import type { CodeTable } from '../../src/terminology/code-table.js';
import { synonymLexicon } from '../../src/terminology/starter-catalog.js';
import { stemWords, wordStems } from '../../src/terminology/text-normalize.js';
import type { CodiEspDoc } from './codiesp.js';

export interface LexiconOptions {
  maxLen: number;
  /** documents that must hold the phrase */
  minDocs: number;
  /** documents that must hold phrase and code together */
  minSupport: number;
  /** share of the phrase's documents that have the code */
  minPrecision: number;
  /** a phrase in more than this share of all documents is too common to name anything */
  maxDocShare: number;
}

export const LEXICON_OPTIONS: LexiconOptions = { maxLen: 3, minDocs: 3, minSupport: 3, minPrecision: 0.35, maxDocShare: 0.1 };

/** The asserted stem n-grams of a document (negated, family, uncertain words excluded). */
export function docPhrases(text: string, maxLen: number): Set<string> {
  const out = new Set<string>();
  for (const s of splitSentences(text)) {
    const st = stemWords(s.words);
    const asserted = assertWords(s.words);
    for (let i = 0; i < st.stems.length; i++) {
      let key = '';
      for (let len = 1; len <= maxLen && i + len <= st.stems.length; len++) {
        const k = i + len - 1;
        if (asserted[st.from[k]] !== 'present') break;
        key = len === 1 ? st.stems[i] : `${key} ${st.stems[k]}`;
        // Numbers, doses and ages are no names of conditions.
        if (/\d/.test(st.stems[k])) break;
        if (key.length < 3) continue;
        out.add(key);
      }
    }
  }
  return out;
}

/**
 * Phrase -> code pairs from documents with gold codes: a phrase is kept for a code when enough of
 * the documents that state it carry the code (document-level co-occurrence; CodiEsp gives no
 * spans). Only billable codes of `table`.
 */
export function learnLexicon(
  table: CodeTable,
  docs: readonly CodiEspDoc[],
  phrases: Map<string, Set<string>>,
  o: LexiconOptions = LEXICON_OPTIONS,
): LearnedEntry[] {
  const df = new Map<string, number>();
  for (const d of docs) for (const p of phrases.get(d.id)!) df.set(p, (df.get(p) ?? 0) + 1);
  const co = new Map<string, number>();
  for (const d of docs) {
    const gold = [...d.gold].filter((c) => table.isBillable(c));
    if (gold.length === 0) continue;
    for (const p of phrases.get(d.id)!) {
      if ((df.get(p) ?? 0) < o.minDocs) continue;
      for (const g of gold) {
        const k = `${p}\t${g}`;
        co.set(k, (co.get(k) ?? 0) + 1);
      }
    }
  }
  const byPhrase = new Map<string, LearnedEntry[]>();
  const index = table.index;
  const names = namesByCode();
  const related = (phrase: string, code: string): boolean => {
    const i = table.indexOf(code);
    if (i === undefined) return false;
    const own = new Set<string>();
    for (const id of index.requiredOf(i)) own.add(stemOf(id));
    for (const n of names.get(code) ?? []) for (const st of n) own.add(st);
    // The same word in another form shares its first 7 letters ("brucella", "brucellosis");
    // "hyperuricemia" and "hypertension" share only "hyper".
    return phrase
      .split(' ')
      .some((w) => own.has(w) || (w.length >= 7 && [...own].some((o) => o.length >= 7 && o.slice(0, 7) === w.slice(0, 7))));
  };
  const byId = [...index.vocab.keys()];
  const stemOf = (id: number) => byId[id];
  for (const [k, n] of co) {
    if (n < o.minSupport) continue;
    const [p, code] = k.split('\t');
    if (df.get(p)! > o.maxDocShare * docs.length) continue;
    // The phrase must share a word with the code's own title (or a curated name of it): a
    // coder accepts "septic" for sepsis, never "hyperuricemia" for hypertension, however often
    // the two appear together in case reports.
    if (!related(p, code)) continue;
    const precision = n / df.get(p)!;
    if (precision < o.minPrecision) continue;
    const list = byPhrase.get(p) ?? [];
    list.push([p, code, Math.round(precision * 1000) / 1000, n]);
    byPhrase.set(p, list);
  }
  const out: LearnedEntry[] = [];
  for (const list of byPhrase.values()) out.push(...list.sort((a, b) => b[2] - a[2]).slice(0, 2));
  // A longer phrase that says no more than a shorter one inside it is dropped.
  const best = new Map(out.map((e) => [`${e[0]}\t${e[1]}`, e[2]]));
  const kept = out.filter(([p, code, prec]) => {
    const w = p.split(' ');
    for (let a = 0; a < w.length; a++) {
      for (let b = a + 1; b <= w.length; b++) {
        if (b - a === w.length) continue;
        const sub = best.get(`${w.slice(a, b).join(' ')}\t${code}`);
        if (sub !== undefined && sub >= prec - 0.05) return false;
      }
    }
    return true;
  });
  return kept.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : a[1] < b[1] ? -1 : 1));
}

/** The stems of each code's curated names (starter catalog synonyms). */
function namesByCode(): Map<string, string[][]> {
  const out = new Map<string, string[][]>();
  for (const e of synonymLexicon()) {
    const list = out.get(e.code) ?? [];
    list.push(e.phrase.split(/\s+/).flatMap((w) => [...wordStems(w)]));
    out.set(e.code, list);
  }
  return out;
}
