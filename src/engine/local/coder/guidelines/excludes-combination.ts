import { phraseStems } from '../../../../terminology/text-normalize.js';
import { type Candidate, type Candidates, dotted, sameCategory } from '../candidate.js';
import { fitOf } from '../complete-code.js';
import { refCovers, statedOf } from './tabular-excludes.js';
import { notesUpOf } from './tabular-notes.js';

interface Combination {
  /** undotted; a header ("M472") is completed by the note's words */
  code: string;
  /** where the coder read it */
  source: string;
}

/**
 * Excludes1 pairs with a combination code (I.A.12.a, I.B.9): two conditions the note states whose
 * Tabular notes exclude each other, and whose one code the Tabular or the Index gives, are coded by
 * that code and neither part; "with" presumes the link even where the note does not state it
 * (I.A.15). The Tabular gives it when one condition's Excludes1 note names the other's category
 * "with" the first ("that with hydronephrosis (N13.2)" at N20, beside N13.30); the Index when one
 * condition's main term has a "with" subterm the other states ("Spondylosis, with, radiculopathy").
 * Pairs whose Excludes1 reference covers the other code itself are left to the Excludes1 pass
 * (tabular-excludes.ts), which searches that reference for the combination.
 */
export function applyExcludes1Combinations(cands: Candidates): void {
  if (!cands.ctx.it) return;
  const finals = cands.finals();
  if (finals.length < 2) return;
  // Each candidate's leads, read once: its Excludes1 notes "with" a code, and its Index "with" subterms.
  const leads = new Map(finals.map((c) => [c, { notes: withNotes(cands, c), subterms: withSubterms(cands, c) }]));
  const stems = new Map<Candidate, Set<string>>();
  const stemsOf: StemsOf = (c) => {
    let out = stems.get(c);
    if (!out) stems.set(c, (out = evidenceStems(cands, c)));
    return out;
  };
  // (Loops over every pair of finals: one array for what a pair gives, no slices or spreads per pair.)
  const found: Combination[] = [];
  for (const a of finals) {
    const la = leads.get(a)!;
    for (const b of finals) {
      if (!a.final || !b.final || a === b || sameCategory(a.code, b.code)) continue;
      const lb = leads.get(b)!;
      if (la.notes.length === 0 && la.subterms.length === 0 && lb.subterms.length === 0) continue;
      found.length = 0;
      fromTabular(cands, a, b, la.notes, stemsOf, found);
      fromIndex(cands, a, b, la.subterms, stemsOf, found);
      fromIndex(cands, b, a, lb.subterms, stemsOf, found);
      if (found.length > 0) combine(cands, a, b, found);
    }
  }
}

/** Codes `a` and `b` by the combination code found that fits them best. */
function combine(cands: Candidates, a: Candidate, b: Candidate, found: Combination[]): void {
  const best = bestOf(cands, a, b, found);
  if (best === undefined) return;
  const { table } = cands.ctx;
  const made = cands.assign(
    table.codeAt(best.index),
    `combination code (I.A.12.a, I.B.9): ${dotted(a.code)} and ${dotted(b.code)} are an Excludes1 pair, and ${best.source} gives ${table.dottedAt(best.index)}, which states both`,
    [a, b],
  );
  if (!made) return;
  for (const c of [a, b])
    if (c !== made)
      cands.discard(c, `Discarded: coded with the other condition as the combination code ${table.dottedAt(best.index)} (${best.source}).`);
}

/** Stems of the words a candidate was read from (evidenceStems, read once per candidate). */
type StemsOf = (c: Candidate) => ReadonlySet<string>;

/** Stems of the words a candidate was read from. */
function evidenceStems(cands: Candidates, c: Candidate): Set<string> {
  const out = new Set<string>();
  for (const s of c.spans) for (const st of phraseStems(cands.ctx.text.slice(s.start, s.end))) out.add(st);
  return out;
}

/** Stems that need not be stated: NOS, NEC, and class nouns ("cervical disc disorder" of "cervical disc disease"). */
const UNSTATED_OK = new Set(['no', 'nec', 'disord', 'diseas', 'condit']);

interface WithNote {
  ref: string;
  /** the reference undotted ("N132" of "N13.2") */
  code: string;
  text: string;
  /** the note's words beyond c's own title, that must be stated */
  rest: string[];
}

/** A candidate's Excludes1 notes "with" one code or header ("that with hydronephrosis (N13.2)"). */
function withNotes(cands: Candidates, c: Candidate): WithNote[] {
  const out: WithNote[] = [];
  let own: Set<string> | undefined;
  for (const note of notesUpOf(cands.ctx, c.code)) {
    if (note.kind !== 'x1' || !/\bwith\b/.test(note.text)) continue;
    for (const ref of note.refs) {
      if (/-[A-Z]/.test(ref)) continue; // a range names no one combination
      own ??= new Set(phraseStems(cands.ctx.table.descriptionAt(c.index)));
      const rest = phraseStems(note.text).filter((s) => !own!.has(s) && !UNSTATED_OK.has(s));
      if (rest.length) out.push({ ref, code: ref.replace(/[.-]/g, ''), text: note.text, rest });
    }
  }
  return out;
}

/**
 * `a`'s Excludes1 notes that name a code of `b`'s category, not `b` itself, "with" a's condition:
 * the note's words beyond a's own title are words b was read from ("that with hydronephrosis" of
 * "hydronephrosis"; not "angiodysplasia of stomach with hemorrhage" of "gastric polyp").
 */
function fromTabular(cands: Candidates, a: Candidate, b: Candidate, notes: WithNote[], stemsOf: StemsOf, out: Combination[]): void {
  for (const n of notes) {
    const { code } = n;
    if (!sameCategory(code, b.code) || refCovers(n.ref, b.code)) continue;
    const bStems = stemsOf(b);
    if (n.rest.every((s) => bStems.has(s))) out.push({ code, source: `the Tabular at ${dotted(a.code)} (Excludes1 "${n.text}")` });
  }
}

interface WithSubterm {
  code: string;
  words: string[];
  path: string;
}

/**
 * The "with" subterms of the main term a candidate was read under, with a code, whose words its
 * own title does not already state ("Acute appendicitis with generalized peritonitis" is itself
 * the combination).
 */
function withSubterms(cands: Candidates, x: Candidate): WithSubterm[] {
  const it = cands.ctx.it!;
  let main = x.found?.mention.indexTerm;
  if (main === undefined) return [];
  while (main > 0 && it.level[main] !== 0) main--;
  const out: WithSubterm[] = [];
  let title: Set<string> | undefined;
  for (const w of it.children(main)) {
    if (it.titleOf(w).toLowerCase() !== 'with') continue;
    for (const t of it.children(w)) {
      const code = it.codeOf(t).replace(/[.-]/g, '');
      const words = phraseStems(it.titleOf(t)).filter((s) => !UNSTATED_OK.has(s));
      if (!code || words.length === 0) continue;
      title ??= new Set(phraseStems(cands.ctx.table.descriptionAt(x.index)));
      if (words.every((s) => title!.has(s))) continue;
      out.push({ code, words, path: `${it.titleOf(main)}, with, ${it.titleOf(t)}` });
    }
  }
  return out;
}

/** The subterms of x's main term that y states whole, when x and y (or x or y and the subterm's code) are an Excludes1 pair. */
function fromIndex(cands: Candidates, x: Candidate, y: Candidate, subterms: WithSubterm[], stemsOf: StemsOf, out: Combination[]): void {
  for (const t of subterms) {
    const yStems = stemsOf(y);
    if (!t.words.every((s) => yStems.has(s))) continue;
    if (!excludes1Pair(cands, x.code, y.code) && !excludes1Pair(cands, x.code, t.code) && !excludes1Pair(cands, y.code, t.code)) continue;
    out.push({ code: t.code, source: `the Index (${t.path})` });
  }
}

/** Whether either code's Excludes1 notes (or its headers') name the other. */
function excludes1Pair(cands: Candidates, p: string, q: string): boolean {
  const names = (x: string, y: string) => notesUpOf(cands.ctx, x).some((n) => n.kind === 'x1' && n.refs.some((r) => refCovers(r, y)));
  return names(p, q) || names(q, p);
}

/** The billable code, of those found or under them, whose title fits the two statements best. */
function bestOf(cands: Candidates, a: Candidate, b: Candidate, found: Combination[]): { index: number; source: string } | undefined {
  const { table } = cands.ctx;
  const stated = statedOf(cands, [a, b]);
  let best: { index: number; source: string; fit: number } | undefined;
  for (const f of found) {
    const own = table.indexOf(f.code);
    const rows = own !== undefined && table.billableAt(own) ? [table.row(own)] : table.descendantsOf(f.code).filter((r) => r.billable);
    for (const row of rows) {
      const fit = fitOf(row.description, stated);
      if (!best || fit > best.fit) best = { index: table.indexOf(row.code)!, source: f.source, fit };
    }
  }
  return best;
}
