import { wordStems } from '../../../terminology/text-normalize.js';
import type { IndexTabular } from '../../../terminology/index-tabular.js';
import type { CodeTable } from '../../../terminology/code-table.js';
import type { Assertion } from './assertions.js';
import { fitOf } from './complete-code.js';
import { indexMentions, type IndexNote } from './index-lookup.js';
import { mainTermsByStems } from './index-terms.js';
import { newMention, type Mention, type SentenceStems } from './mention.js';

// Words that open a site phrase ("contusion of the right knee and left elbow").
const SITE_PREPOSITION = new Set(['of', 'to', 'on', 'in', 'at', 'over', 'involving']);
const CONJUNCTION = new Set(['and', '&']);
const ENDS_PHRASE = new Set([',', ';', ':', '.', '(', ')', 'and', 'or', 'with', 'without', 'due', 'after', 'from', 'since', 'following']);
const MAX_CONJUNCT = 5;

/** The main term (level 0) a term of the Index lies under. */
function mainOf(it: IndexTabular, term: number): number {
  let t = term;
  while (t > 0 && it.level[t] > 0) t--;
  return t;
}

/** The sentence's stems without the words from..to (their positions kept). */
function without(st: SentenceStems, from: number, to: number): SentenceStems {
  const out: SentenceStems = { stems: [], from: [], numbers: [] };
  for (let k = 0; k < st.stems.length; k++) {
    if (st.from[k] >= from && st.from[k] <= to) continue;
    out.stems.push(st.stems[k]);
    out.from.push(st.from[k]);
    out.numbers.push(st.numbers[k]);
  }
  return out;
}

/** The sentence's words with from..to read as filler ("the"): no clause break, nothing counted in a window. */
function blanked(lower: readonly string[], from: number, to: number): string[] {
  return lower.map((w, i) => (i >= from && i <= to ? 'the' : w));
}

/**
 * One condition stated at two sites ("contusion of the right knee and left elbow", "second degree
 * burns of the right forearm and left hand"): the Index is read once per site, each site with its
 * own side and words, and both codes are kept (a coder codes each site; I.C.19.d for burns). The
 * lookup of the whole sentence reads one site, or mixes the side of one with the other.
 * `found` is the lookup of the whole sentence; returns it with each two-site reading so split.
 */
export function withSecondSites(
  note: IndexNote,
  st: SentenceStems,
  lower: readonly string[],
  assertions: readonly Assertion[],
  si: number,
  window: number,
  found: Mention[],
): Mention[] {
  if (!lower.some((w) => CONJUNCTION.has(w))) return found;
  let out = found;
  // (The loop over the words holds no variable a closure reads: that would make a context per word.)
  for (let k = 1; k < lower.length - 1; k++) if (CONJUNCTION.has(lower[k])) out = splitAt(note, st, lower, assertions, si, window, k, out);
  return out;
}

/** `out` with each two-site reading joined by the conjunction at word k so split. */
function splitAt(
  note: IndexNote,
  st: SentenceStems,
  lower: readonly string[],
  assertions: readonly Assertion[],
  si: number,
  window: number,
  k: number,
  out: Mention[],
): Mention[] {
  const { it } = note;
  // The site phrase before: back to its preposition, within a few words and no punctuation.
  let p = k - 1;
  while (p >= 0 && k - p <= MAX_CONJUNCT && !SITE_PREPOSITION.has(lower[p]) && !ENDS_PHRASE.has(lower[p])) p--;
  if (p < 0 || p === k - 1 || !SITE_PREPOSITION.has(lower[p])) return out;
  let e = k + 1;
  while (e < lower.length && e - k <= MAX_CONJUNCT && !ENDS_PHRASE.has(lower[e])) e++;
  e--;
  if (e <= k) return out;
  // A condition named just before the site phrase ("contusion of", "second degree burns of").
  if (!namedBefore(it, st, p)) return out;
  // The second site first: most conjunctions join no second site, and the first is then not read again.
  const other = indexMentions(note, without(st, p + 1, k), blanked(lower, p + 1, k), assertions, si, window).filter((b) =>
    (b.words ?? []).some((w) => w > k && w <= e),
  );
  if (other.length === 0) return out;
  const first = indexMentions(note, without(st, k, e), blanked(lower, k, e), assertions, si, window);
  const second = new Set<string>();
  for (let w = k + 1; w <= e; w++) for (const s of wordStems(lower[w])) second.add(s);
  const split = new Set<number>();
  const added: Mention[] = [];
  for (const b of other) {
    if (b.indexTerm === undefined) continue;
    const main = mainOf(it, b.indexTerm);
    // The second phrase restating the condition ("... and first degree burn of the thigh") is a condition of its own.
    if (restatesMain(it, main, second)) continue;
    const a = first.find((m) => m.indexTerm !== undefined && mainOf(it, m.indexTerm) === main && m.code !== b.code);
    if (!a) continue;
    split.add(main);
    const both = multipleSites(note.table, a, b, st);
    for (const m of both ? [both] : [a, b]) if (!added.some((o) => o.code === m.code)) added.push(m);
  }
  if (split.size === 0) return out;
  return out.filter((m) => m.indexTerm === undefined || !split.has(mainOf(it, m.indexTerm))).concat(added);
}

/**
 * The subcategory's "multiple sites" code, when the two sites' codes share one (M10.061 and
 * M10.072: M10.09 "Idiopathic gout, multiple sites"): guideline I.C.13.a codes each site only when
 * the Tabular has none. Of several, the one whose title the sentence states best (its side).
 */
function multipleSites(table: CodeTable, a: Mention, b: Mention, st: SentenceStems): Mention | undefined {
  const [x, y] = [table.codeAt(a.code), table.codeAt(b.code)];
  let n = 0;
  while (n < x.length && n < y.length && x[n] === y[n]) n++;
  if (n < 3 || x.slice(0, 3) !== y.slice(0, 3)) return undefined;
  const present = new Set(st.stems);
  const stated = { present, negated: new Set<string>() };
  let best: number | undefined;
  let bestFit = -Infinity;
  for (const r of table.descendantsOf(x.slice(0, n))) {
    if (!r.billable || !/\bmultiple sites\b/i.test(r.description)) continue;
    // The same 7th character (the encounter) as the sites'.
    if (x.length === 7 && (r.code.length !== 7 || r.code[6] !== x[6])) continue;
    const fit = fitOf(r.description, stated);
    if (fit > bestFit) {
      bestFit = fit;
      best = table.indexOf(r.code);
    }
  }
  if (best === undefined) return undefined;
  const words = [...new Set([...(a.words ?? []), ...(b.words ?? [])])].sort((p, q) => p - q);
  return newMention({ ...a, code: best, start: Math.min(a.start, b.start), end: Math.max(a.end, b.end), words, indexPath: undefined });
}

/** Whether one of the few words before word `p` is an Index main term of one word. */
function namedBefore(it: IndexTabular, st: SentenceStems, p: number): boolean {
  const { byStems } = mainTermsByStems(it);
  for (let k = 0; k < st.stems.length; k++) if (st.from[k] < p && st.from[k] >= p - 4 && byStems.has(st.stems[k])) return true;
  return false;
}

/** Whether the words of a phrase name the main term again (its title's first stem). */
function restatesMain(it: IndexTabular, main: number, stems: ReadonlySet<string>): boolean {
  const first = wordStems(it.titleOf(main).split(/[\s,(]+/)[0] ?? '');
  return first.some((s) => stems.has(s));
}
