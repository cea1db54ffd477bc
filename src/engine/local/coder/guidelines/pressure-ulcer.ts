import type { IndexTabular } from '../../../../terminology/index-tabular.js';
import { phraseStems, wordStems } from '../../../../terminology/text-normalize.js';
import { assertWords } from '../assertions.js';
import { type Candidate, type Candidates, sentencesMatching, type Span } from '../candidate.js';
import { fitOf } from '../complete-code.js';
import type { Sentence } from '../sentence-split.js';

/** The Index's names of a pressure ulcer ("Bedsore", "Pressure, injury", "Decubitus"), and its sites under "Ulcer, pressure". */
interface PressureIndex {
  /**
   * each name's stems: the titles of the path to a term whose `see` is "Ulcer, pressure"; and for a
   * one-word name, its nonessential modifier ("Decubitus (ulcer)": in a case report "decubitus"
   * is as often the patient's lying position)
   */
  names: Array<{ stems: string[]; modifier: string[] }>;
  /** a word that may begin a name, to find the sentences worth reading */
  anyName: RegExp;
  /** the site subterms of "Ulcer, pressure": the words that name each (its title's first, its nonessential modifier) and code ("L89.6-") */
  sites: Array<{ stems: string[]; code: string }>;
}

const indexes = new WeakMap<IndexTabular, PressureIndex | null>();
const GENERIC = new Set(wordStems('ulcer').concat(wordStems('injury'), wordStems('sore'), wordStems('area'), wordStems('skin')));

/** Read once per Index: "Ulcer > pressure" and every term that sends the coder there. */
function pressureIndex(it: IndexTabular): PressureIndex | null {
  const known = indexes.get(it);
  if (known !== undefined) return known;
  let ulcer: number | undefined;
  for (const main of it.mainTerms('ulcer'))
    ulcer ??= it.children(main).find((c) => it.titleOf(c).toLowerCase() === 'pressure' && it.codeOf(c).startsWith('L89'));
  if (ulcer === undefined) {
    indexes.set(it, null);
    return null;
  }
  const names: PressureIndex['names'] = [{ stems: phraseStems('pressure ulcer'), modifier: [] }];
  const path: string[] = [];
  for (let i = 0; i < it.size; i++) {
    path.length = it.level[i];
    // A main term by its first name ("Ulcer, ulcerated, ulcerating": ulcer).
    path.push(it.level[i] === 0 ? it.titleOf(i).split(',')[0] : it.titleOf(i));
    if (!/^Ulcer, pressure\b/i.test(it.seeOf(i))) continue;
    const stems = [...new Set(phraseStems(path.join(' ')))];
    const modifier = stems.length === 1 ? phraseStems(it.nemodOf(i).replace(/[()]/g, ' ')) : [];
    if (!names.some((n) => n.stems.join(' ') === stems.join(' '))) names.push({ stems, modifier });
  }
  // Each name is found by its word the most names share ("pressure" over "necrosis", "decub" over
  // "gangrene"), the first letters of a stem: few sentences of a long note hold one.
  const prefixes = (n: { stems: string[] }) => n.stems.filter((w) => !GENERIC.has(w)).map((w) => w.slice(0, 5));
  const shared = new Map<string, number>();
  for (const n of names) for (const k of new Set(prefixes(n))) shared.set(k, (shared.get(k) ?? 0) + 1);
  const keys = new Set(names.map((n) => prefixes(n).sort((a, b) => shared.get(b)! - shared.get(a)!)[0] ?? n.stems[0].slice(0, 5)));
  const sites: PressureIndex['sites'] = [];
  for (const c of it.children(ulcer)) {
    const code = it.codeOf(c);
    if (!code || /NEC$/.test(it.titleOf(c))) continue;
    // "contiguous site of back, buttock, hip" is named by its first word, not by "back".
    sites.push({ stems: [phraseStems(it.titleOf(c))[0], ...phraseStems(it.nemodOf(c).replace(/[()]/g, ' '))], code });
  }
  const out = { names, anyName: new RegExp(`\\b(${[...keys].join('|')})`, 'gi'), sites };
  indexes.set(it, out);
  return out;
}

type Stage = 'unstageable' | 'stage 1' | 'stage 2' | 'stage 3' | 'stage 4' | 'deep tissue' | 'unspecified stage';
const STAGE_NUMBER: Record<string, Stage> = {
  '1': 'stage 1',
  i: 'stage 1',
  one: 'stage 1',
  '2': 'stage 2',
  ii: 'stage 2',
  two: 'stage 2',
  '3': 'stage 3',
  iii: 'stage 3',
  three: 'stage 3',
  '4': 'stage 4',
  iv: 'stage 4',
  four: 'stage 4',
};
/** Words within which a stage belongs to the ulcer ("stage 3 pressure injury", "pressure ulcer of the sacrum, stage 3"). */
const STAGE_REACH = 8;

/**
 * The stage the sentence gives the ulcer at word `at` (I.C.12.a): the nearest "stage N"; else
 * unstageable when the note says it cannot be staged or the ulcer is covered by eschar (I.C.12.a.2:
 * the stage cannot be clinically determined); pressure-induced deep tissue damage ("deep tissue",
 * the Index: "L89 with final character .6"); else the stage is unspecified (I.C.12.a.2).
 */
function stageOf(lower: readonly string[], at: number): { stage: Stage; words: number[] } {
  let best: { stage: Stage; words: number[] } | undefined;
  let distance = Infinity;
  for (let i = 0; i < lower.length; i++) {
    const w = lower[i];
    let found: { stage: Stage; words: number[] } | undefined;
    if (w === 'stage' && STAGE_NUMBER[lower[i + 1]]) found = { stage: STAGE_NUMBER[lower[i + 1]], words: [i, i + 1] };
    else if (/^(unstageable|nonstageable|non-stageable)$/.test(w)) found = { stage: 'unstageable', words: [i] };
    else if (/^(unable|cannot|not)$/.test(w) && /^(to|be)$/.test(lower[i + 1]) && /^stag/.test(lower[i + 2] ?? ''))
      found = { stage: 'unstageable', words: [i, i + 1, i + 2] };
    else if (w === 'deep' && /^tissue/.test(lower[i + 1] ?? '')) found = { stage: 'deep tissue', words: [i, i + 1] };
    if (!found || Math.abs(i - at) > STAGE_REACH) continue;
    if (Math.abs(i - at) < distance) [best, distance] = [found, Math.abs(i - at)];
  }
  if (best) return best;
  const eschar = lower.findIndex((w, i) => w === 'eschar' && Math.abs(i - at) <= STAGE_REACH);
  if (eschar >= 0) return { stage: 'unstageable', words: [eschar] };
  return { stage: 'unspecified stage', words: [] };
}

/** Extra words a name's words may hold between them ("pressure-induced deep tissue injury", "ulcer from pressure"). */
const NAME_GAP = 2;

/** The words of the sentence that state `name`, all present and together; undefined when it does not. */
function namedAt(
  name: readonly string[],
  stems: readonly string[],
  from: readonly number[],
  assertions: readonly string[],
): number[] | undefined {
  const first = stems.indexOf(name[0]);
  if (first < 0) return undefined;
  for (let k = first; k < stems.length; k++) {
    if (stems[k] !== name[0] || assertions[from[k]] !== 'present') continue;
    const words = [from[k]];
    for (const w of name.slice(1)) {
      let at = -1;
      for (let j = 0; j < stems.length; j++)
        if (stems[j] === w && assertions[from[j]] === 'present' && Math.abs(from[j] - from[k]) <= name.length + NAME_GAP) at = from[j];
      if (at < 0) break;
      words.push(at);
    }
    if (words.length === name.length) return words;
  }
  return undefined;
}

/** Words from a name within which a site or a modifier is the ulcer's, in the name's clause. */
const SITE_REACH = 8;

/** Whether word w lies near the name's words, no semicolon or colon between. */
function nearName(lower: readonly string[], nameWords: readonly number[]): (w: number) => boolean {
  const lo = Math.min(...nameWords);
  const hi = Math.max(...nameWords);
  return (w) => {
    if (w < lo - SITE_REACH || w > hi + SITE_REACH) return false;
    for (let i = Math.min(w, lo); i <= Math.max(w, hi); i++) if (lower[i] === ';' || lower[i] === ':') return false;
    return true;
  };
}

/** A site word the note states near the name: the same stem, or the same root of a longer word ("sacrum": sacral region). */
function siteAt(stems: readonly string[], from: readonly number[], site: readonly string[], near: (w: number) => boolean): number {
  for (let k = 0; k < stems.length; k++) {
    const s = stems[k];
    if (!near(from[k])) continue;
    for (const w of site) if (s === w || (s.length >= 5 && w.length >= 5 && s.slice(0, 4) === w.slice(0, 4))) return k;
  }
  return -1;
}

/**
 * Pressure ulcers (I.C.12.a): the L89 code combines the site, the side and the stage. The note
 * names the ulcer by any of the Index's names for it ("Decubitus", "Bedsore", "Pressure, injury":
 * see Ulcer, pressure, by site); the site is the "Ulcer, pressure" subterm it states, completed by
 * side in the Tabular; the stage is the one the note documents (stage 1-4, unstageable, deep tissue
 * damage), unspecified when none is (I.C.12.a.2). The chronic ulcer (L97) a site reads alone, the
 * unspecified pressure ulcer, and the skin changes (R23) that describe the stage, stated in the
 * same sentence, give way to it. A healed ulcer is not coded (I.C.12.a.4: its words are not present).
 */
export function applyPressureUlcers(cands: Candidates): void {
  const { it, table } = cands.ctx;
  if (!it) return;
  const index = pressureIndex(it);
  if (!index) return;
  for (const s of sentencesMatching(cands.ctx, index.anyName)) {
    const { stems, from } = s.stems;
    const assertions = assertWords(s.words);
    let nameWords: number[] | undefined;
    let sites: Array<{ site: PressureIndex['sites'][number]; at: number }> = [];
    for (const n of index.names) {
      nameWords = namedAt(n.stems, stems, from, assertions);
      if (!nameWords) continue;
      const near = nearName(s.lower, nameWords);
      sites = index.sites.map((site) => ({ site, at: siteAt(stems, from, site.stems, near) })).filter((x) => x.at >= 0);
      // A one-word name whose modifier names the ulcer ("decubitus (ulcer)") needs it, or a site, beside it.
      if (n.modifier.length === 0 || sites.length || n.modifier.some((m) => stems.some((st, k) => st === m && near(from[k])))) break;
      nameWords = undefined;
    }
    if (!nameWords) continue;
    const made: Candidate[] = [];
    const read = sites.length ? sites : [{ site: { stems: [], code: 'L89.9-' }, at: -1 }];
    for (const { site, at } of read) {
      const word = at >= 0 ? from[at] : nameWords[0];
      const { stage, words } = stageOf(s.lower, word);
      for (const code of ulcerCodes(cands, site.code, stage, sideNear(stems, from, word))) {
        const spans = spansOf(s, [...nameWords, ...(at >= 0 ? [word] : []), ...words]);
        const c = cands.assign(code, `pressure ulcer by site, side and stage (I.C.12.a; Index: Ulcer, pressure, ${stage})`, [], spans);
        if (c) made.push(c);
      }
    }
    if (made.length === 0) continue;
    const first = s.starts[0];
    const last = s.ends[s.ends.length - 1];
    for (const c of cands.finalsIn('L89', 'L97', 'L98.4', 'R23')) {
      if (made.includes(c) || !c.spans.every((sp) => sp.start >= first && sp.end <= last)) continue;
      cands.discard(
        c,
        `Discarded: the sentence states a pressure ulcer, coded ${made.map((m) => table.dottedAt(m.index)).join(', ')} by site and stage (I.C.12.a).`,
      );
    }
  }
}

const SIDE_REACH = 3;
const SIDES = new Set(['right', 'left', 'bilateral', 'both'].flatMap((w) => wordStems(w)));
const BOTH = new Set(['bilateral', 'both'].flatMap((w) => wordStems(w)));
const [RIGHT, LEFT] = ['right', 'left'].map((w) => wordStems(w)[0]);

/**
 * The sentence's stems as one site reads them: of its side words, only the nearest to the site's
 * word ("right heel and left hip": the heel is right); a site of both sides reads both.
 */
function sideNear(stems: readonly string[], from: readonly number[], word: number): string[] {
  let side: string | undefined;
  let distance = SIDE_REACH + 1;
  for (let k = 0; k < stems.length; k++) {
    if (!SIDES.has(stems[k]) || Math.abs(from[k] - word) >= distance) continue;
    [side, distance] = [stems[k], Math.abs(from[k] - word)];
  }
  const out = stems.filter((s) => !SIDES.has(s));
  if (side) out.push(side);
  return out;
}

/** The billable L89 codes under `site` for `stage`, by the side stated (both sides for "bilateral"). */
function ulcerCodes(cands: Candidates, site: string, stage: Stage, stems: readonly string[]): string[] {
  const { table } = cands.ctx;
  const rows = table.descendantsOf(site.replace(/[.-]/g, '')).filter((r) => r.billable && stageTitled(r.description, stage));
  const sides = stems.some((w) => BOTH.has(w)) ? [[RIGHT], [LEFT]] : [[]];
  const out: string[] = [];
  for (const side of sides) {
    const present = new Set([...stems, ...side]);
    let best: string | undefined;
    let bestFit = -Infinity;
    for (const r of rows) {
      const fit = fitOf(r.description, { present, negated: new Set() });
      if (fit > bestFit) [best, bestFit] = [r.code, fit];
    }
    if (best && !out.includes(best)) out.push(best);
  }
  return out;
}

function stageTitled(title: string, stage: Stage): boolean {
  const t = title.toLowerCase();
  return stage === 'unspecified stage' ? t.endsWith('unspecified stage') : t.includes(stage);
}

/** The words' spans, a run of adjacent words as one ("Stage 3 pressure injury"). */
function spansOf(s: Sentence, words: number[]): Span[] {
  const out: Span[] = [];
  let prev = -2;
  for (const w of [...new Set(words)].sort((a, b) => a - b)) {
    if (w === prev + 1) out[out.length - 1].end = s.ends[w];
    else out.push({ start: s.starts[w], end: s.ends[w] });
    prev = w;
  }
  return out;
}
