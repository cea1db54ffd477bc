import type { IndexTabular } from '../../../../terminology/index-tabular.js';
import { type Candidate, type Candidates, dotted, sentenceAt } from '../candidate.js';
import { completeCode } from '../complete-code.js';
import type { Sentence } from '../sentence-split.js';
import { statesUnrelated } from './combination.js';
import { readTitleHead, statedAround } from './etiology.js';
import { sameAxes, statedAxis } from './manifestation-axes.js';
import { refCover } from './tabular-excludes.js';

/** A subterm of a main term whose code the Tabular links to other conditions by a note. */
interface Partner {
  /** the subterm */
  term: number;
  /** the code the subterm gives: its manifestation code in brackets when it has one, else its own code (undotted) */
  code: string;
  /** whether that code is the subterm's bracketed manifestation (the etiology is then the note's other code) */
  manifestation: boolean;
  /** the subterm's own code, undotted ("E0590" of "thyrotoxic E05.90 [I43]") */
  etiology: string;
  /** a "with" or "in" subterm: the Index presumes the link (I.A.15); any other needs a linking word */
  presumed: boolean;
  /** the "code first" and "use additional code" notes of the code and of each header above it, by where they sit */
  notes: Array<{ at: string; kind: 'cf' | 'ua'; refs: string[] }>;
}

// A "with" or "in" subterm ("with", "in", "with current pathological fracture").
const presumes = (title: string) => /^(with|in)( |$)/.test(title);
// Words that say one condition is due to another ("cardiomyopathy due to thyrotoxicosis", "amiodarone-induced").
const LINK = new Set(['due', 'secondary', 'caused', 'from', 'induced', 'related', 'associated']);
const linkWord = (w: string) => LINK.has(w) || w.endsWith('-induced') || w.endsWith('-related');
// A main term's subterms number in the thousands for "Disease" or "Syndrome": a bounded walk.
const MAX_SUBTERMS = 4_000;

interface Partners {
  list: Partner[];
  /** every reference the partners' notes name, once */
  refs: string[];
}

const perTabular = new WeakMap<IndexTabular, { mains: Map<number, Partners>; notes: Map<string, Partner['notes']> }>();
const CACHED = 5_000;

/** The subterms of main term `main` (following a `see` to the code it names) whose code has "code first" or "use additional code" notes naming codes; read once per thread. */
function partnersOf(it: IndexTabular, main: number): Partners {
  let memo = perTabular.get(it);
  if (!memo) perTabular.set(it, (memo = { mains: new Map(), notes: new Map() }));
  let out = memo.mains.get(main);
  if (out) return out;
  out = { list: [], refs: [] };
  const titles: string[] = [];
  for (let t = main + 1; t < it.end[main] && t - main < MAX_SUBTERMS; t++) {
    titles.length = it.level[t] - it.level[main] - 1;
    titles.push(it.titleOf(t).toLowerCase());
    const seen = it.hasSee(t) ? it.resolvePath(it.seeOf(t)) : undefined;
    const own = it.codeOf(seen ?? t);
    const manif = it.manifOf(seen ?? t).split(' ')[0];
    const code = (manif || own).replace(/[.-]/g, '');
    if (code.length < 3) continue;
    const notes = notesAbove(it, code, memo.notes);
    if (notes.length === 0) continue;
    out.list.push({
      term: t,
      code,
      manifestation: manif !== '',
      etiology: own.replace(/[.-]/g, ''),
      presumed: titles.some(presumes),
      notes,
    });
    for (const n of notes) for (const ref of n.refs) if (!out.refs.includes(ref)) out.refs.push(ref);
  }
  if (memo.mains.size >= CACHED) memo.mains.clear();
  memo.mains.set(main, out);
  return out;
}

/** The "code first" and "use additional code" notes that name codes, of an undotted code and of each header above it. */
function notesAbove(it: IndexTabular, code: string, memo?: Map<string, Partner['notes']>): Partner['notes'] {
  let out = memo?.get(code);
  if (out) return out;
  out = [];
  for (let n = 3; n <= code.length; n++) {
    const at = code.slice(0, n);
    for (const note of it.notes(dotted(at)))
      if ((note.kind === 'cf' || note.kind === 'ua') && note.refs.length) out.push({ at, kind: note.kind, refs: note.refs });
  }
  if (memo) {
    if (memo.size >= CACHED) memo.clear();
    memo.set(code, out);
  }
  return out;
}

/** The path of a subterm from its main term: "Dementia > with > Parkinson's disease". */
function pathOf(it: IndexTabular, term: number): string {
  const titles = [it.titleOf(term)];
  for (let t = term - 1, level = it.level[term]; t >= 0 && level > 0; t--)
    if (it.level[t] < level) {
      titles.unshift(it.titleOf(t));
      level = it.level[t];
    }
  return titles.join(' > ');
}

/**
 * A condition the Index codes otherwise when the note states its partner (I.A.13, I.A.15, I.A.16):
 * a final code read from a main term, beside another final code of the same sentence that a
 * subterm's code names in its "code first" or "use additional code" note, is coded by that subterm:
 * - a subterm with a manifestation in brackets ("Dementia, with, Parkinson's disease G20 [F02.80]";
 *   "Cardiomyopathy, thyrotoxic E05.90 [I43]") whose manifestation's "code first" names the other
 *   code: the manifestation replaces the main term's code, with its axes (severity, behavior), and
 *   the other code stays the etiology;
 * - a subterm's own code ("Sepsis, with, organ dysfunction R65.20", "Hypothyroidism, due to,
 *   medicament E03.2") whose notes name the other code: that code is added, and replaces the main
 *   term's code unless its "code first" names it (the sepsis stays, first).
 * Only when one subterm code fits, when the two are linked by the Index's "with" or "in" or by
 * the sentence's words ("due to", "induced"), and never by the notes the two codes share (a
 * category's "use additional code" for insulin use).
 */
export function applyIndexPartners(cands: Candidates): void {
  const { it, table } = cands.ctx;
  if (!it) return;
  const finals = cands.finals();
  const sentences = new Map(finals.map((f) => [f, sentencesOf(cands, f)]));
  for (const c of finals) {
    if (!c.final) continue;
    const near = finalsNear(c, finals, sentences);
    if (near.length === 0) continue;
    const main = mainTermOf(cands, c);
    if (main === undefined) continue;
    const partners = partnersOf(it, main);
    // Most main terms' notes name no code stated beside `c`: one pass over their references first.
    if (!near.some((n) => partners.refs.some((ref) => refCover(ref)(n.other.code)))) continue;
    const found = partnerFor(c, near, partners.list, it);
    if (!found) continue;
    const { partner, other } = found;
    const path = pathOf(it, partner.term);
    const stated = statedAround(cands, c);
    const picked = partner.manifestation ? sameAxes(table, partner.code, c) : completeCode(table, partner.code, stated);
    const index = picked === undefined ? undefined : statedAxis(table, picked, stated);
    if (index === undefined || index === c.index) continue;
    const made = cands.assign(
      table.codeAt(index),
      `the Alphabetic Index codes ${path} as ${dotted(table.codeAt(index))}, and the note states ${dotted(other.code)} with it (I.A.13, I.A.15)`,
      [c],
    );
    if (!made) continue;
    if (!etiologyOf(notesAbove(it, made.code), c.code))
      cands.discard(
        c,
        `Discarded: the Alphabetic Index codes ${path} as ${dotted(made.code)} with ${dotted(other.code)} (I.A.13, I.A.15).`,
      );
  }
}

/**
 * The main term `c` is that term's own code of ("Dementia" F03.90): the one it was read at, or
 * the one its evidence or title names. A code read at a subterm already says what it is with.
 */
function mainTermOf(cands: Candidates, c: Candidate): number | undefined {
  const it = cands.ctx.it!;
  const term = c.found?.mention.indexTerm ?? cands.ctx.indexTerms?.get(c.index);
  const names = c.spans.map((sp) => cands.ctx.text.slice(sp.start, sp.end).toLowerCase());
  names.push(readTitleHead(cands.ctx.table.descriptionAt(c.index)));
  const mains = term === undefined ? names.flatMap((n) => it.mainTerms(n)) : [mainOf(it, term)];
  return mains.find((m) => it.codeOf(m).replace(/[.-]/g, '') === c.code);
}

function mainOf(it: IndexTabular, term: number): number {
  let main = term;
  while (main > 0 && it.level[main] > 0) main--;
  return main;
}

/**
 * The one subterm code whose notes name another final code stated with `c`, and that code;
 * undefined when none or more than one fit. A subterm under another that fits ("Sepsis, with,
 * organ dysfunction, with septic shock") is a further reading its own words would have to state:
 * the upper one is taken. Of the subterms giving one manifestation, the one whose own code is of
 * the other code's category names the pair ("Cardiomyopathy, thyrotoxic E05.90 [I43]" for E05.00).
 */
function partnerFor(
  c: Candidate,
  near: readonly Near[],
  partners: readonly Partner[],
  it: IndexTabular,
): { partner: Partner; other: Candidate } | undefined {
  const hits: Array<{ partner: Partner; other: Candidate }> = [];
  for (const p of partners) {
    if (p.code === c.code || c.code.startsWith(p.code)) continue;
    const other = otherNamed(c, near, p);
    if (other && !hits.some((h) => under(it, p.term, h.partner.term))) hits.push({ partner: p, other });
  }
  if (hits.length === 0 || hits.some((h) => !sameChoice(h.partner, hits[0].partner))) return undefined;
  const named = (h: (typeof hits)[number]) => h.partner.etiology.slice(0, 3) === h.other.code.slice(0, 3);
  return hits.find((h) => h.partner.manifestation && named(h)) ?? hits.find((h) => h.partner.manifestation) ?? hits[0];
}

/** Whether a code's notes say "code first" the undotted `code`. */
const etiologyOf = (notes: Partner['notes'], code: string) => notes.some((n) => n.kind === 'cf' && n.refs.some((r) => refCover(r)(code)));

/** Whether Index term `t` is a subterm of term `above`. */
const under = (it: IndexTabular, t: number, above: number) => t > above && t < it.end[above];

/** The final code, stated with `c`, that a note of the subterm's code names (never one both codes sit under). */
function otherNamed(c: Candidate, near: readonly Near[], p: Partner): Candidate | undefined {
  // A subterm's own code "uses an additional code" for `c`'s partner only as a kind of `c`'s
  // condition (E03.2 for E03.9) or after it (R65.20, "code first" A41.9); else the note is about
  // that other condition alone (a respiratory disorder's tobacco use).
  const additional = !p.manifestation && (p.code.slice(0, 3) === c.code.slice(0, 3) || etiologyOf(p.notes, c.code));
  for (const note of p.notes) {
    if (c.code.startsWith(note.at) || (note.kind === 'ua' && !additional)) continue;
    for (const ref of note.refs) {
      const covers = refCover(ref);
      const found = near.find((n) => (p.presumed || n.byWord) && covers(n.other.code));
      if (found) return found.other;
    }
  }
  return undefined;
}

// Manifestations of one category are one choice (their axes come from the code they replace),
// and so is a subterm giving one of them as its own code ("Dementia, in, diseases specified elsewhere F02.80").
const keyOf = (p: Partner) => (p.manifestation ? p.code.slice(0, 3) : p.code);
const sameChoice = (a: Partner, b: Partner) => a.code.startsWith(keyOf(b)) || b.code.startsWith(keyOf(a));

/** Whether one code was made from the other (a bracketed manifestation and its code). */
const derived = (a: Candidate, b: Candidate) => Boolean(a.from?.includes(b) || b.from?.includes(a));

/** A final code read in a sentence with another, and whether that sentence links them by a word ("due to", "induced"). */
interface Near {
  other: Candidate;
  byWord: boolean;
}

function sentencesOf(cands: Candidates, c: Candidate): Sentence[] {
  const out: Sentence[] = [];
  for (const sp of c.spans) {
    const s = sentenceAt(cands.ctx, sp.start, sp.end);
    if (s && !out.includes(s)) out.push(s);
  }
  return out;
}

/**
 * The other final codes read in a sentence with `c` that does not call them unrelated (I.A.15),
 * never one made from the other.
 */
function finalsNear(c: Candidate, finals: readonly Candidate[], sentences: Map<Candidate, Sentence[]>): Near[] {
  const own = sentences.get(c)!;
  const out: Near[] = [];
  for (const o of finals) {
    if (o === c || !o.final || derived(o, c)) continue;
    // (Read in place, not filtered: this runs for every pair of final codes, and a filtered list
    // and its closure a pair were the guideline layers' largest garbage.)
    const theirs = sentences.get(o)!;
    let shared = false;
    let byWord = false;
    for (let k = 0; k < theirs.length; k++) {
      const s = theirs[k];
      if (!own.includes(s) || statesUnrelated(s.lower)) continue;
      shared = true;
      if (!byWord && s.lower.some(linkWord)) byWord = true;
    }
    if (shared) out.push({ other: o, byWord });
  }
  return out;
}
