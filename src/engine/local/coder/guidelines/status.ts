import type { IndexTabular } from '../../../../terminology/index-tabular.js';
import { wordsStandingFor, phraseStems } from '../../../../terminology/text-normalize.js';
import { assertWords, PAST_YEAR } from '../assertions.js';
import { type Candidates, sentencesMatching, type Span } from '../candidate.js';
import { completeCode, fitOf } from '../complete-code.js';
import type { Sentence } from '../sentence-split.js';
import { bestSubterms, subtermsOf, type Subterm, wholeSubterms } from './index-subterms.js';

// Status categories (I.C.21.c.3): acquired absence (Z89, Z90), artificial openings (Z93),
// transplants (Z94), cardiac and other implants and grafts (Z95-Z97), postprocedural states (Z98),
// dependence on machines (Z99).
const STATUS = /^Z(89|90|9[3-9])/;

/** The sentence's stems the note asserts, each at its first word, within [from, to]. */
export function statedIn(s: Sentence, from: number, to: number): Map<string, number> {
  const assertions = assertWords(s.words);
  const { stems, from: at } = s.stems;
  const out = new Map<string, number>();
  for (let k = 0; k < stems.length; k++) {
    const w = at[k];
    if (w < from || w > to || assertions[w] === 'negated' || assertions[w] === 'family' || out.has(stems[k])) continue;
    out.set(stems[k], w);
  }
  return out;
}

/**
 * A pattern over a note's text for words that begin with one of `prefixes` ("colostom"), or that
 * a note writes for such a word ("trach", "BKA", "arthroplasty"), as whole words.
 */
export function wordsPattern(prefixes: readonly string[]): RegExp {
  const standing = wordsStandingFor((w) => prefixes.some((p) => w.startsWith(p)));
  const escape = (w: string) => w.replace(/[.*+?^${}()|[\]\\/-]/g, '\\$&');
  return new RegExp(`\\b(${prefixes.map(escape).join('|')})${standing.length ? `|\\b(${standing.map(escape).join('|')})\\b` : ''}`, 'gi');
}

export const spansOf = (s: Sentence, words: readonly number[]): Span[] => words.map((w) => ({ start: s.starts[w], end: s.ends[w] }));

/**
 * Status codes (I.C.21.c.3): a status is the present state a past procedure or condition left (a
 * graft, an implant, an amputation, an opening, a transplant), however long ago it was made: a
 * status code the note dates in the past or calls history is current.
 */
function keepPastStatus(cands: Candidates): void {
  for (const c of cands.list) {
    if (c.final || c.assertion !== 'historical' || c.origin === 'learned' || !STATUS.test(c.code) || c.found?.discard) continue;
    cands.assign(c.code, 'status code: a past procedure leaves a present status (I.C.21.c.3)', [], c.spans);
  }
}

const machines = new WeakMap<IndexTabular, RegExp>();

/** The words that name a machine of "Dependence > on" (its titles' and modifiers' stems), as one pattern. */
function machineWords(it: IndexTabular, list: readonly Subterm[]): RegExp {
  let out = machines.get(it);
  if (!out) {
    // Each way's last word names the machine ("renal dialysis": dialysis); a stem is not always a
    // word's beginning ("dialysi"), its first letters are.
    const stems = new Set(
      list
        .flatMap((t) => t.alts.map((a) => a[a.length - 1] ?? ''))
        .filter((w) => w.length >= 4)
        .map((w) => w.slice(0, 5)),
    );
    machines.set(it, (out = wordsPattern([...stems])));
  }
  return out;
}

const MACHINE_REACH = 3;
// Words that state a dependence after the machine: "ventilator-dependent", "wheelchair bound", "bed confined".
const DEPENDENT = /(dependent|bound|confined)$/;
// Machines also given for an acute illness only (a ventilator, supplemental oxygen).
const ACUTE_TOO = /^Z99\.(1|81)/;

const machineLists = new WeakMap<IndexTabular, Subterm[]>();

/** "Dependence > on" and "Dependence" subterms coded in Z99 ("on > renal dialysis Z99.2", "oxygen Z99.81"), read once. */
function machinesOf(it: IndexTabular): Subterm[] {
  let out = machineLists.get(it);
  if (!out)
    // (The first level's modifiers qualify its machine, they name none: "oxygen (long-term) (supplemental)".)
    machineLists.set(
      it,
      (out = [...subtermsOf(it, 'dependence > on', 2, /^Z99/, 1), ...subtermsOf(it, 'dependence', 1, /^Z99/, Infinity)]),
    );
  return out;
}
const LONG_TERM = new Set(['home', 'chronic', 'chronically', 'long-term', 'permanent', 'dependent', 'dependence']);

/**
 * Dependence on a machine (Z99, I.C.21.c.3): a patient "on" hemodialysis, a ventilator, a
 * wheelchair, or "dependent" on one, by the Index's "Dependence > on" subterm stated within a few
 * words. The visit for the dialysis itself (Z49) is not a dependence.
 */
function machineDependence(cands: Candidates): void {
  const { it } = cands.ctx;
  if (!it || cands.finalsIn('Z49').length) return;
  const list = machinesOf(it);
  for (const s of sentencesMatching(cands.ctx, machineWords(it, list))) {
    for (let i = 0; i < s.lower.length; i++) {
      const w = s.lower[i];
      const on = w === 'on';
      // "on hemodialysis"; "dependent on a ventilator", "ventilator-dependent", "dialysis dependent", "wheelchair bound".
      if (!on && !DEPENDENT.test(w)) continue;
      const [found] = bestSubterms(list, statedIn(s, on ? i + 1 : i - 1, i + MACHINE_REACH));
      // Put "on the ventilator" or "on oxygen" in an acute illness is treatment; a dependence is said so, or at home.
      if (!found || (ACUTE_TOO.test(found.code) && on && !s.lower.some((x) => LONG_TERM.has(x)))) continue;
      cands.assign(
        found.code,
        'dependence on a machine, a status (I.C.21.c.3; Index: Dependence, on)',
        [],
        spansOf(s, [i, ...found.words]),
      );
    }
  }
}

// What makes an amputation a status rather than this visit's injury: the note dates it or calls it past.
const PAST = new Set(['ago', 'history', 'prior', 'previous', 'old', 'status', 's/p', 'post', 'prosthesis', 'stump', 'healed', 'remote']);
const AMPUTATION = /^amput/;
// "BKA": below-knee amputation.
const AMPUTATION_ABBREVIATIONS = new Set(wordsStandingFor((w) => AMPUTATION.test(w)));
const AMPUTATION_WORD = wordsPattern(['amput']);
const isAmputation = (w: string) => AMPUTATION.test(w) || AMPUTATION_ABBREVIATIONS.has(w);

/**
 * An amputation the note dates in the past is a status: acquired absence by site, level and side
 * (Index: Amputation, see also Absence, by site, acquired; I.C.21.c.3), "below-knee" Z89.51-, a
 * leg "above knee" Z89.61-, completed by the side stated.
 */
function acquiredAbsence(cands: Candidates): void {
  const { it, table } = cands.ctx;
  if (!it) return;
  const list = subtermsOf(it, 'absence', 3, /^Z89/, 2);
  for (const s of sentencesMatching(cands.ctx, AMPUTATION_WORD)) {
    const at = s.lower.findIndex(isAmputation);
    if (at < 0) continue;
    const assertions = assertWords(s.words);
    const past = assertions[at] === 'historical' || s.lower.some((w) => PAST.has(w) || PAST_YEAR.test(w));
    if (!past || assertions[at] === 'negated' || assertions[at] === 'family') continue;
    const said = statedIn(s, 0, s.lower.length - 1);
    // Of the subterms that state as much ("extremity > lower (above knee) Z89.619", "leg (above
    // knee) Z89.61-"), the one whose completed code's title fits the note best (its side).
    const stated = { present: said, negated: new Set<string>() };
    let index: number | undefined;
    let found: { code: string; words: number[] } | undefined;
    let bestFit = -Infinity;
    for (const f of bestSubterms(list, said)) {
      const i = completeCode(table, f.code, stated);
      const fit = i === undefined ? -Infinity : fitOf(table.descriptionAt(i), stated);
      if (fit > bestFit) [index, found, bestFit] = [i, f, fit];
    }
    if (index === undefined || !found) continue;
    cands.assign(
      table.codeAt(index),
      'acquired absence of a limb, a status (I.C.21.c.3; Index: Amputation, see Absence, by site, acquired)',
      [],
      spansOf(s, [at, ...found.words]),
    );
  }
}

const openings = new WeakMap<IndexTabular, { list: Subterm[]; words: RegExp }>();

/** The Index's main terms with a "status" subterm coded in Z93-Z99 ("Colostomy, status Z93.3"), read once. */
function statusTerms(it: IndexTabular): { list: Subterm[]; words: RegExp } {
  let out = openings.get(it);
  if (out) return out;
  const list: Subterm[] = [];
  const names = new Set<string>();
  for (const [, mains] of it.mainNames()) {
    for (const main of mains) {
      const status = it.children(main).find((c) => it.titleOf(c).toLowerCase() === 'status' && /^Z9[3-9]/.test(it.codeOf(c)));
      if (status === undefined) continue;
      const stems = phraseStems(it.titleOf(main).split(',')[0]);
      if (stems.length && !list.some((t) => t.code === it.codeOf(status) && t.alts[0].join(' ') === stems.join(' ')))
        list.push({ code: it.codeOf(status), alts: [stems], above: [] });
      // The main term's own word as a note writes it ("colostom": colostomy, colostomies), not a
      // stem's first letters ("gastr" is gastric too).
      names.add(
        it
          .titleOf(main)
          .split(/[\s,(]/)[0]
          .toLowerCase()
          .slice(0, -1),
      );
    }
  }
  const words = wordsPattern([...names]);
  openings.set(it, (out = { list, words }));
  return out;
}

// What the note says of an opening or a device other than its presence: a visit for it (I.C.21.c.7 aftercare, Z43-Z46) or its complication.
export const NOT_PRESENCE =
  /^(attention|care|cleansing|toilet|fitting|adjustment|malfunction|malfunctioning|complication|complications|revision|reversal|closure|takedown|infected|infection|leak|leaking|dislodged|removal|removed|planned|scheduled)$/;

// An opening made in the stay the note tells of is its procedure, not yet a status the patient comes with.
export const MADE_NOW = new Set([
  'performed',
  'placed',
  'created',
  'underwent',
  'undergoing',
  'inserted',
  'required',
  'requiring',
  'fashioned',
  'constructed',
]);
const STATUS_MARKERS = new Set([
  'status',
  's/p',
  'post',
  'history',
  'hx',
  'h/o',
  'prior',
  'previous',
  'existing',
  'since',
  'chronic',
  'permanent',
  'long-term',
  'home',
  'ago',
  'has',
  'wears',
  'dependent',
]);

/** The sentence says the opening is one the patient has: "in place", "2019", "since 2019", "status post", "history of", "years ago". */
export function hasStatusMarker(lower: readonly string[]): boolean {
  return lower.some((w, i) => STATUS_MARKERS.has(w) || (w === 'in' && lower[i + 1] === 'place') || PAST_YEAR.test(w));
}

/**
 * Whether a sentence says the patient has a device, an opening or a procedure's result as a status:
 * a status marker, and nothing of a visit for it or of its complication; nor of its making now
 * ("placed", "created"), unless a past year or "ago" dates the making ("PPM placed in 2017").
 */
export function saysStatus(lower: readonly string[]): boolean {
  if (!hasStatusMarker(lower) || lower.some((w) => NOT_PRESENCE.test(w))) return false;
  return !lower.some((w) => MADE_NOW.has(w)) || lower.some((w, i) => PAST_YEAR.test(w) || (w === 'ago' && i > 0));
}

/**
 * An artificial opening the note says the patient has ("colostomy in place", "ileostomy since her colectomy"):
 * its status (I.C.21.c.3; Index: Colostomy, status Z93.3), unless the sentence speaks of
 * attending to, fitting, closing or a complication of it (coded otherwise).
 */
function openingStatus(cands: Candidates): void {
  const { it } = cands.ctx;
  if (!it) return;
  const { list, words } = statusTerms(it);
  for (const s of sentencesMatching(cands.ctx, words)) {
    if (!saysStatus(s.lower)) continue;
    const said = statedIn(s, 0, s.lower.length - 1);
    const assertions = assertWords(s.words);
    for (const found of bestSubterms(list, said)) {
      if (found.words.some((w) => assertions[w] !== 'present' && assertions[w] !== 'historical')) continue;
      cands.assign(found.code, 'an artificial opening the patient has, a status (I.C.21.c.3; Index: status)', [], spansOf(s, found.words));
    }
  }
}

const statusPosts = new WeakMap<IndexTabular, { list: Subterm[]; words: RegExp }>();

/** The subterms of "Status (post)" coded as a status (Z89-Z99: "mastectomy Z90.1-", "pacemaker, cardiac Z95.0"), read once. */
function statusPostTerms(it: IndexTabular): { list: Subterm[]; words: RegExp } {
  let out = statusPosts.get(it);
  if (out) return out;
  const list: Subterm[] = [];
  for (const root of it.mainTerms('status')) {
    const above: string[][] = [];
    for (let t = root + 1; t < it.end[root]; t++) {
      const d = it.level[t] - it.level[root];
      if (d > 3) continue;
      const title = it.titleOf(t);
      above.length = d - 1;
      above.push(phraseStems(title));
      if (!STATUS.test(it.codeOf(t))) continue;
      // A purpose after "for" says why it was done: "gastric bypass for obesity" is stated by "gastric bypass".
      const done = title.split(/\s+for\s+/)[0];
      list.push({
        code: it.codeOf(t),
        alts: done === title ? [above[d - 1]] : [above[d - 1], phraseStems(done)],
        above: above.slice(0, -1).flat(),
      });
    }
  }
  // Each subterm's first word as a note writes it: those of the first level with a status code at or
  // below them, which the deeper ones stand under.
  const names = new Set<string>();
  for (const main of it.mainTerms('status'))
    for (const c of it.children(main)) {
      const first = it
        .titleOf(c)
        .split(/[\s,(]/)[0]
        .toLowerCase();
      let coded = false;
      for (let t = c; t < it.end[c] && !coded; t++) coded = STATUS.test(it.codeOf(t));
      if (coded && first.length >= 5) names.add(first.slice(0, -1));
    }
  statusPosts.set(it, (out = { list, words: wordsPattern([...names]) }));
  return out;
}

/**
 * A procedure or state the note says the patient has had ("s/p left mastectomy", "cholecystectomy
 * 2010", "history of gastric banding"): its status by the Index's "Status (post)" subterm, completed
 * with the side stated (I.C.21.c.3), unless the sentence speaks of doing it now, a visit for it or
 * its complication (coded otherwise).
 */
function statusPost(cands: Candidates): void {
  const { it, table } = cands.ctx;
  if (!it) return;
  const { list, words } = statusPostTerms(it);
  for (const s of sentencesMatching(cands.ctx, words)) {
    if (!saysStatus(s.lower)) continue;
    const said = statedIn(s, 0, s.lower.length - 1);
    const assertions = assertWords(s.words);
    const present = new Set(said.keys());
    for (const found of wholeSubterms(list, said)) {
      if (found.words.some((w) => assertions[w] !== 'present' && assertions[w] !== 'historical')) continue;
      const index = completeCode(table, found.code, { present, negated: new Set() });
      if (index === undefined) continue;
      cands.assign(
        table.codeAt(index),
        'a procedure the patient has had, a status (I.C.21.c.3; Index: Status (post))',
        [],
        spansOf(s, found.words),
      );
    }
  }
}

/** Status codes (I.C.21.c.3): past procedures as present status, openings, dependence on machines, acquired absence of limbs. */
export function applyStatus(cands: Candidates): void {
  keepPastStatus(cands);
  statusPost(cands);
  openingStatus(cands);
  machineDependence(cands);
  acquiredAbsence(cands);
}
