import type { IndexTabular } from '../../../../terminology/index-tabular.js';
import { stemWords } from '../../../../terminology/text-normalize.js';
import { assertWords } from '../assertions.js';
import { type Candidate, type Candidates, dotted, sentenceAt } from '../candidate.js';
import { bestSubterms, subtermsOf } from './index-subterms.js';
import { weeksOfGestation } from './pregnancy.js';
import { refCover } from './tabular-excludes.js';
import { notesUpOf } from './tabular-notes.js';
import { statedTrimester, withTrimester } from './trimester.js';

// A pregnancy stated now (not "G2P2" of an obstetric history, nor "prenatal vitamins").
const PREGNANT = /^(pregnant|gestation|antepartum|trimester)$/;
const PREGNANT_TEXT = /\b(pregnant|gestation|antepartum|trimester)\b/i;
// After or at the delivery the fifth character is the childbirth's or the puerperium's: another rule's.
const NOT_ANTEPARTUM = /^(postpartum|post-partum|puerperal|puerperium|delivered|delivery|born|newborn|liveborn|infant)$/;
// Codes no "complicated by" subterm is read for: chapter 15 itself, symptoms, injuries and their
// causes, the perinatal and congenital chapters, factors (Z).
const NOT_A_CONDITION = /^[OPQRSTVWXYZ]/;
/** How deep the "Pregnancy, complicated by" subterms are read ("diabetes > pre-existing > type 2"). */
const DEPTH = 3;
const PATH = 'pregnancy > complicated by';

/**
 * Conditions in a pregnancy (I.C.15.a.1): the chapter 15 code is sequenced first, and a code of
 * another chapter follows it when the chapter 15 code asks for it ("use additional code to identify
 * specific condition"). The Alphabetic Index gives the code: "Pregnancy, complicated by" and the
 * subterm the note states for the condition (diabetes > pre-existing > type 2 O24.11-; infection >
 * urinary O23.4-), or the subterm whose "(conditions in J00-J99)" holds the condition's code
 * (respiratory condition O99.51-); the trimester from the weeks stated (I.C.15.a.3).
 */
export function applyPregnancyConditions(cands: Candidates): void {
  const { it, table } = cands.ctx;
  if (!it || !antepartum(cands) || cands.finalsIn('Z38').length) return;
  const trimester = statedTrimester(cands);
  const made: Candidate[] = [];
  for (const c of cands.statedIn('')) {
    if (NOT_A_CONDITION.test(c.code) || c.spans.length === 0) continue;
    const code = subtermStated(cands, it, c) ?? subtermHolding(it, c.code);
    const full = code && withTrimester(cands, code, trimester);
    if (!full) continue;
    const o = cands.assign(
      full,
      `a condition in pregnancy is coded from chapter 15 first (I.C.15.a.1; Index: Pregnancy, complicated by), ${dotted(c.code)} with it`,
      [c],
    );
    if (!o) continue;
    made.push(o);
    if (!asksFor(cands, o, c))
      cands.discard(c, `Discarded: ${table.dottedAt(o.index)} states the condition in the pregnancy (I.C.15.a.1).`);
  }
  if (made.length === 0) return;
  // Chapter 15 first; each code it asks for after it, in the note's order.
  const list = cands.list;
  const rest = list.filter((c) => !made.includes(c));
  list.splice(0, list.length, ...made, ...rest);
  weeksOfGestation(cands);
}

/** Whether the note states a pregnancy, before its delivery. */
function antepartum(cands: Candidates): boolean {
  if (!PREGNANT_TEXT.test(cands.ctx.text)) return false;
  let pregnant = false;
  for (const s of cands.ctx.sentences) {
    let assertions: ReturnType<typeof assertWords> | undefined;
    for (let i = 0; i < s.lower.length; i++) {
      if (NOT_ANTEPARTUM.test(s.lower[i])) return false;
      if (pregnant || !PREGNANT.test(s.lower[i])) continue;
      // (The assertions of a sentence only when it holds a pregnancy's word: most hold none.)
      assertions ??= assertWords(s.words);
      if (assertions[i] === 'present') pregnant = true;
    }
  }
  return pregnant;
}

/**
 * The "complicated by" subterm the condition's own sentence states: a subterm right under it whose
 * title is stated with a word of the condition's evidence ("diabetes"), then the subterm below
 * that the sentence states best ("pre-existing > type 2"), or its own code.
 */
function subtermStated(cands: Candidates, it: IndexTabular, c: Candidate): string | undefined {
  const span = c.spans[0];
  const s = sentenceAt(cands.ctx, span.start, span.end);
  if (!s) return undefined;
  const assertions = assertWords(s.words);
  const { stems, from } = stemWords(s.words);
  const said = new Map<string, number>();
  for (let k = 0; k < stems.length; k++) if (assertions[from[k]] === 'present' && !said.has(stems[k])) said.set(stems[k], from[k]);
  const inside = (w: number) => c.spans.some((p) => s.starts[w] >= p.start && s.ends[w] <= p.end);
  // (One list per path, at one depth: subtermsOf reads a path once.) A subterm right under
  // "complicated by" is stated whole ("genital tract infection" is not "urinary tract infection").
  const list = subtermsOf(it, PATH, DEPTH, /^O/, Infinity);
  const whole = list.filter((t) => t.above.length === 0 && t.alts[0].every((w) => said.has(w)));
  const heads = bestSubterms(whole, said).filter((b) => b.words.some(inside));
  if (heads.length !== 1) return undefined;
  const head = heads[0].code;
  const below = list.filter((t) => t.above.length > 0 && underHead(it, t.code, head));
  const best = bestSubterms(below, said).filter((b) => b.words.some(inside));
  return best.length === 1 ? best[0].code : head;
}

/** Whether a subterm's code lies under the level-1 subterm of `head` (read by the codes' Index order). */
function underHead(it: IndexTabular, code: string, head: string): boolean {
  for (const root of it.mainTerms('pregnancy')) {
    const by = it.children(root).find((t) => it.titleOf(t).toLowerCase() === 'complicated by');
    if (by === undefined) continue;
    for (const top of it.children(by)) {
      if (it.codeOf(top) !== head) continue;
      for (let t = top + 1; t < it.end[top]; t++) if (it.codeOf(t) === code) return true;
    }
  }
  return false;
}

// The "(conditions in D50-D64)" ranges of the "complicated by" subterms, read once per Index.
const ranges = new WeakMap<IndexTabular, Array<{ code: string; covers: Array<(code: string) => boolean> }>>();

/** The "complicated by" subterm whose "(conditions in ...)" holds the code. */
function subtermHolding(it: IndexTabular, code: string): string | undefined {
  let list = ranges.get(it);
  if (!list) {
    list = [];
    for (const root of it.mainTerms('pregnancy')) {
      const by = it.children(root).find((t) => it.titleOf(t).toLowerCase() === 'complicated by');
      if (by === undefined) continue;
      for (let t = by + 1; t < it.end[by]; t++) {
        const held = /\(conditions? i[ns] ([^)]*)\)/.exec(it.nemodOf(t));
        const own = it.codeOf(t);
        if (!held || !/^O/.test(own)) continue;
        const refs = held[1].split(/,\s*|\s+and\s+/).filter((r) => /^[A-Z]\d/.test(r));
        list.push({ code: own, covers: refs.map((r) => refCover(r)) });
      }
    }
    ranges.set(it, list);
  }
  return list.find((r) => r.covers.some((covers) => covers(code)))?.code;
}

/** Whether the chapter 15 code's Tabular notes ask for the condition's own code beside it. */
function asksFor(cands: Candidates, o: Candidate, c: Candidate): boolean {
  return notesUpOf(cands.ctx, o.code).some(
    (n) =>
      n.kind === 'ua' &&
      (n.refs.some((r) => refCover(r)(c.code)) ||
        n.text.includes(c.code.slice(0, 3)) ||
        /\bspecific (condition|infectious)|\bidentify (the )?(condition|manifestations)/i.test(n.text)),
  );
}
