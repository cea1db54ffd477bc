import type { IndexTabular } from '../../../../terminology/index-tabular.js';
import { phraseStems } from '../../../../terminology/text-normalize.js';

/** A coded subterm of the Alphabetic Index as the rules that read one main term's subterms see it. */
export interface Subterm {
  code: string;
  /** each way the subterm may be stated: its title's stems, or a group of its nonessential modifiers ("(above knee)") */
  alts: string[][];
  /** the stems of the subterms above it: support, never required */
  above: string[];
}

const cache = new WeakMap<IndexTabular, Map<string, Subterm[]>>();

/**
 * The coded subterms of a main term or subterm ("Absence", "Dependence > on"), down to `depth`,
 * whose codes pass `keep`; a group of nonessential modifiers states one when it has `minGroup`
 * words or more ("(above knee)"; "(hemodialysis)" for a machine). Read once per Index.
 */
export function subtermsOf(it: IndexTabular, path: string, depth: number, keep: RegExp, minGroup: number): Subterm[] {
  let byPath = cache.get(it);
  if (!byPath) cache.set(it, (byPath = new Map()));
  // One list per question: the same path asked with another depth, filter or group size reads other subterms.
  const key = `${path}\u0000${depth}\u0000${keep.source}/${keep.flags}\u0000${minGroup}`;
  let out = byPath.get(key);
  if (out) return out;
  out = [];
  const [main, ...below] = path.split(' > ');
  for (let root of it.mainTerms(main)) {
    for (const title of below) root = it.children(root).find((c) => it.titleOf(c).toLowerCase() === title) ?? -1;
    if (root < 0) continue;
    walkSubterms(it, root, depth, (t, title, above) => {
      if (!keep.test(it.codeOf(t))) return;
      const groups = [...it.nemodOf(t).matchAll(/\(([^()]*)\)/g)].map((m) => phraseStems(m[1]));
      out.push({ code: it.codeOf(t), alts: [title, ...groups.filter((g) => g.length >= minGroup)], above: above() });
    });
  }
  byPath.set(key, out);
  return out;
}

/**
 * Each subterm under `root` down to `depth` levels, in Index order, with its title's stems and the
 * stems of the subterms above it (`above()`, support for a reading, never required).
 */
export function walkSubterms(
  it: IndexTabular,
  root: number,
  depth: number,
  visit: (t: number, title: string[], above: () => string[]) => void,
): void {
  const path: string[][] = [];
  const above = () => path.slice(0, -1).flat();
  for (let t = root + 1; t < it.end[root]; t++) {
    const d = it.level[t] - it.level[root];
    if (d > depth) continue;
    const title = phraseStems(it.titleOf(t));
    path.length = d - 1;
    path.push(title);
    visit(t, title, above);
  }
}

/**
 * The subterms a set of stated stems names best: one of its ways stated whole (or a title of
 * several words but its first, "renal dialysis" as "dialysis", "routine mammogram" as "mammogram",
 * at a cost), the most words, with the words above it as support ("neoplasm" above "lung"); all of them
 * on a tie, in Index order.
 */
export function bestSubterms(list: readonly Subterm[], said: ReadonlyMap<string, number>): Array<{ code: string; words: number[] }> {
  let best: Array<{ code: string; words: number[] }> = [];
  let top = 0;
  for (const t of list) {
    for (const alt of t.alts) {
      const stated = alt.filter((w) => said.has(w));
      // (The word missing may only be the first: "renal dialysis" is not "renal" alone.)
      if (stated.length === 0 || (stated.length < alt.length && (stated.length !== alt.length - 1 || said.has(alt[0])))) continue;
      const above = t.above.filter((w) => said.has(w));
      const score = stated.length - 0.5 * (alt.length - stated.length) + above.length;
      const found = { code: t.code, words: [...stated, ...above].map((w) => said.get(w)!) };
      if (score > top) [best, top] = [[found], score];
      else if (score === top && !best.some((b) => b.code === t.code)) best.push(found);
    }
  }
  return best;
}

/**
 * The subterms a set of stated stems names whole: one of its ways and every word above it stated
 * (a status the patient has is said, not guessed from a word: "coronary artery" alone is no
 * angioplasty), the most words; all of them on a tie, in Index order.
 */
export function wholeSubterms(list: readonly Subterm[], said: ReadonlyMap<string, number>): Array<{ code: string; words: number[] }> {
  let best: Array<{ code: string; words: number[] }> = [];
  let top = 0;
  for (const t of list) {
    if (!t.above.every((w) => said.has(w))) continue;
    for (const alt of t.alts) {
      if (!alt.every((w) => said.has(w))) continue;
      const words = [...new Set([...alt, ...t.above])].map((w) => said.get(w)!);
      if (words.length > top) [best, top] = [[{ code: t.code, words }], words.length];
      else if (words.length === top && !best.some((b) => b.code === t.code)) best.push({ code: t.code, words });
    }
  }
  return best;
}
