import type { IndexTabular } from '../../../../terminology/index-tabular.js';
import { wordStems } from '../../../../terminology/text-normalize.js';
import { type Candidate, type Candidates, sentenceAt } from '../candidate.js';
import { completeCode } from '../complete-code.js';
import type { Sentence } from '../sentence-split.js';

// Guideline I.C.19.d, burns and corrosions, by the Index's "Burn" and "Corrosion" entries: the site,
// its side and the degree the note states (T20-T28), the highest degree of burns of one site
// (I.C.19.d.1), and the extent by total body surface when the note states it (T31, T32: I.C.19.d.6).

// Burns (T20-T25) of a site by degree: the 4th character, 0-3 for burns, 4-7 for corrosions.
const BY_DEGREE = /^T2[0-5]/;
// The Index's words for a degree the note says otherwise ("Burn, blisters - code as Burn, second degree").
const DEGREE_WORDS: Record<string, string> = {
  '1st': 'first',
  '2nd': 'second',
  '3rd': 'third',
  blister: 'second degree',
  blisters: 'second degree',
  blistering: 'second degree',
};
const SEE_HOPS = 2;

/** The sentence's stems, with the Index's word for a degree said otherwise. */
function statedStems(s: Sentence): Set<string> {
  const out = new Set<string>();
  for (let i = 0; i < s.lower.length; i++) {
    const w = s.lower[i];
    for (const st of wordStems(DEGREE_WORDS[w] ?? w)) out.add(st);
    // "partial thickness" is a second degree burn, "full thickness" a third (Index: Burn, blisters; deep necrosis).
    if (/^thickness$/.test(s.lower[i + 1] ?? '') || /-thickness$/.test(w)) {
      const degree = w.startsWith('partial') ? 'second degree' : w.startsWith('full') ? 'third degree' : '';
      for (const st of wordStems(degree)) out.add(st);
    }
  }
  return out;
}

/** How many of the child's title words the note states (its best alternative), -1 when none fits. */
function fit(it: IndexTabular, row: number, stated: ReadonlySet<string>): number {
  const title = it.titleOf(row);
  // "blisters - code as ..." is an instruction, read above; never a site.
  if (title.includes(' - ')) return -1;
  let best = -1;
  for (const alt of title.toLowerCase().split(/,\s*/)) {
    const stems = wordStems(alt);
    if (stems.length && stems.every((s) => stated.has(s))) best = Math.max(best, stems.length);
  }
  return best;
}

interface Reached {
  /** the deepest code on the path the note states best */
  code: string;
  /** the path's titles */
  path: string[];
  score: number;
}

/** The row under `row` whose path the note states best, following `see` (a site named elsewhere), with the deepest code on it. */
function descend(it: IndexTabular, row: number, stated: ReadonlySet<string>, hops = 0): Reached {
  const see = it.seeOf(row);
  if (!it.codeOf(row) && see && hops < SEE_HOPS) {
    const to = it.resolvePath(see.replace(/\s*\([^)]*\)/g, '').replace(/,\s*by site$/i, ''));
    if (to !== undefined && to !== row) return descend(it, to, stated, hops + 1);
  }
  let out: Reached = { code: it.codeOf(row), path: [it.titleOf(row)], score: 0 };
  for (const child of it.children(row)) {
    const own = fit(it, child, stated);
    if (own < 0) continue;
    const sub = descend(it, child, stated, hops);
    if (own + sub.score > out.score)
      out = { code: sub.code || it.codeOf(row), path: [it.titleOf(row), ...sub.path], score: own + sub.score };
  }
  return out;
}

/** The Index's site code for a burn or corrosion the lookup left at its unspecified site (T30.0, T30.4). */
function siteOf(cands: Candidates, it: IndexTabular, c: Candidate, main: number): { code: string; path: string } | undefined {
  const { ctx } = cands;
  for (const sp of c.spans) {
    const s = sentenceAt(ctx, sp.start, sp.end);
    if (!s) continue;
    const found = descend(it, main, statedStems(s));
    if (found.score <= 0 || !found.code) continue;
    const stated = { present: new Set(ctx.defaults ?? []), negated: new Set<string>() };
    const at = completeCode(ctx.table, found.code.replace(/[.-]/g, ''), stated);
    if (at !== undefined) return { code: ctx.table.codeAt(at), path: found.path.join(', ') };
  }
  return undefined;
}

/** The degree a burn or corrosion code of T20-T25 states: 0 unstated, 1-3 first to third. */
const degreeOf = (code: string) => Number(code[3]) % 4;
const kindOf = (code: string) => (Number(code[3]) < 4 ? 'burn' : 'corrosion');

/** "12% TBSA", "20 percent of the total body surface area", and the third-degree part when stated. */
function extentIn(s: Sentence): { total: number; third: number } | undefined {
  const text = s.lower.join(' ');
  const total = /(\d{1,3}) ?(?:%|percent) (?:of (?:the |his |her )?)?(?:total )?(?:body surface|tbsa|bsa)/.exec(text);
  if (!total) return undefined;
  const third = /(\d{1,3}) ?(?:%|percent) (?:of (?:it |which )?)?(?:is |was |are |were )?(?:third|3rd|full)/.exec(text);
  return { total: Number(total[1]), third: third ? Number(third[1]) : 0 };
}

/** The Index's row for an extent: "extent, 20-29 percent, with 10-19 percent third degree burns". */
function extentRow(it: IndexTabular, extent: number, total: number, third: number): number | undefined {
  const inRange = (title: string, n: number) => {
    const less = /less than (\d+)/.exec(title);
    if (less) return n < Number(less[1]);
    const range = /(\d+)-(\d+)/.exec(title);
    if (range) return n >= Number(range[1]) && n <= Number(range[2]);
    const more = /(\d+) percent or more/.exec(title);
    return !!more && n >= Number(more[1]);
  };
  const band = it.children(extent).find((c) => inRange(it.titleOf(c), total));
  if (band === undefined) return undefined;
  return it.children(band).find((c) => inRange(it.titleOf(c).replace(/^with /, ''), third)) ?? band;
}

/**
 * Burns and corrosions (I.C.19.d): a burn the lookup left at its unspecified site gets the site,
 * side and degree the sentence states, by the Index; of burns of one site, the highest degree is
 * coded (d.1); and the extent the note states is coded from T31 or T32 (d.6).
 */
export function applyBurns(cands: Candidates): void {
  const { it, table } = cands.ctx;
  // Left at the unspecified site (T30.0, T30.4) or degree (T2x.0, T2x.4) by a reading of part of the sentence.
  const unread = cands
    .finalsIn('T300', 'T304', 'T20', 'T21', 'T22', 'T23', 'T24', 'T25')
    .filter((c) => c.code[3] === '0' || c.code[3] === '4');
  if (it)
    for (const c of unread) {
      const main = it.resolvePath(c.code[3] === '0' ? 'Burn' : 'Corrosion');
      const site = main === undefined ? undefined : siteOf(cands, it, c, main);
      if (!site || !/^T2[0-8]/.test(site.code) || site.code === c.code) continue;
      // A degree read for a site the lookup found: the same site, not another one of the sentence.
      if (BY_DEGREE.test(c.code) && (site.code.slice(0, 3) !== c.code.slice(0, 3) || site.code.slice(4) !== c.code.slice(4))) continue;
      const made = cands.assign(site.code, `the burn's site, side and degree (guideline I.C.19.d; Index: ${site.path})`, [c]);
      if (made)
        cands.discard(c, `Discarded: the note states the burn's site, coded as ${table.dottedAt(made.index)} (guideline I.C.19.d).`);
    }
  const sited = cands.finalsIn('T20', 'T21', 'T22', 'T23', 'T24', 'T25');
  for (const c of sited) {
    const higher = sited.find(
      (o) =>
        o !== c &&
        o.final &&
        o.code.slice(0, 3) === c.code.slice(0, 3) &&
        o.code.slice(4) === c.code.slice(4) &&
        kindOf(o.code) === kindOf(c.code) &&
        degreeOf(o.code) > degreeOf(c.code),
    );
    if (higher)
      cands.discard(
        c,
        `Discarded: burns of one site are coded to the highest degree stated, ${table.dottedAt(higher.index)} (guideline I.C.19.d.1).`,
      );
  }
  if (!it) return;
  for (const [unsite, kind, category, extentPath] of [
    ['T300', 'burn', 'T31', 'Burn, extent'],
    ['T304', 'corrosion', 'T32', 'Corrosion, extent'],
  ] as const) {
    const burns = cands.finals().filter((c) => (BY_DEGREE.test(c.code) ? kindOf(c.code) === kind : c.code === unsite));
    if (!burns.length || cands.finalsIn(category).length) continue;
    for (const b of burns) {
      const s = sentencesOf(cands, b)
        .map(extentIn)
        .find((e) => e);
      const extent = it.resolvePath(extentPath);
      const row = s && extent !== undefined ? extentRow(it, extent, s.total, s.third) : undefined;
      const code = row === undefined ? '' : it.codeOf(row).replace('.', '');
      if (!code.startsWith(category)) continue;
      cands.assign(code, `extent of body surface (guideline I.C.19.d.6; Index: ${extentPath}, ${it.titleOf(row!)})`, [b]);
      break;
    }
  }
}

/** The sentences a candidate's evidence lies in. */
function sentencesOf(cands: Candidates, c: Candidate): Sentence[] {
  return c.spans.flatMap((sp) => sentenceAt(cands.ctx, sp.start, sp.end) ?? []);
}
