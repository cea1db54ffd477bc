import { stemWords } from '../../../../terminology/text-normalize.js';
import { type Candidate, type Candidates, dotted, sentenceAt } from '../candidate.js';
import { completeCode, type Stated } from '../complete-code.js';
import { refCover } from './tabular-excludes.js';
import { notesUpOf } from './tabular-notes.js';

/** The stems of the sentences holding a candidate, with the note's defaults (encounter, closed, displaced). */
function statedAround(cands: Candidates, c: Candidate): Stated {
  const present = new Set<string>(cands.ctx.defaults ?? []);
  for (const span of c.spans) {
    const s = sentenceAt(cands.ctx, span.start, span.end);
    if (s) for (const stem of stemWords(s.words).stems) present.add(stem);
  }
  return { present, negated: new Set() };
}

/**
 * The etiology/manifestation convention (I.A.13) and "use additional code" (I.A.16), before the
 * combination rules:
 * - an Index code followed by a manifestation code in brackets ("Dementia, in, Parkinson's disease
 *   G20 [F02.80]") codes both, the manifestation completed by what the note states;
 * - a code whose Tabular notes say "use additional code" or "code first" for a condition the note
 *   states, set aside only as less specific than it (the same words), is coded too: the pair
 *   needs both codes ("Anemia in chronic kidney disease": D63.1 and the N18 stage).
 */
export function applyEtiologyPairs(cands: Candidates): void {
  const { it, table } = cands.ctx;
  if (!it) return;
  for (const c of cands.finals()) {
    const term = c.found?.mention.indexTerm ?? cands.ctx.indexTerms?.get(c.index);
    const brackets = term === undefined ? '' : it.manifOf(term);
    if (!brackets) continue;
    let main = term!;
    while (main > 0 && it.level[main] > 0) main--;
    const mainCode = it.codeOf(main).replace(/[.-]/g, '');
    for (const m of brackets.split(' ')) {
      const index = completeCode(table, m, statedAround(cands, c));
      if (index === undefined) continue;
      const made = cands.assign(
        table.codeAt(index),
        `manifestation code the Alphabetic Index gives in brackets with ${dotted(c.code)} (${main === term ? it.titleOf(main) : `${it.titleOf(main)} > ... > ${it.titleOf(term!)}`}); sequenced after it (I.A.13)`,
        [c],
      );
      if (!made || !mainCode) continue;
      // The main term's own code ("Dementia" F03.90) read from the same words is what the pair now says.
      for (const f of cands.finalsIn(mainCode)) {
        if (
          f === made ||
          f === c ||
          !f.spans.some((s) => c.spans.some((o) => sentenceAt(cands.ctx, s.start, s.end) === sentenceAt(cands.ctx, o.start, o.end)))
        )
          continue;
        cands.discard(
          f,
          `Discarded: the Alphabetic Index codes this ${it.titleOf(main)} as ${dotted(c.code)} with ${dotted(made.code)} (I.A.13).`,
        );
      }
    }
  }
  for (const c of cands.finals()) {
    for (const note of notesUpOf(cands.ctx, c.code)) {
      if (note.kind !== 'ua' && note.kind !== 'cf') continue;
      for (const ref of note.refs) {
        const covers = refCover(ref);
        const other = cands.list.find(
          (o) => !o.final && o.assertion === 'present' && o.origin !== 'learned' && o.found?.lessSpecificThan === c.index && covers(o.code),
        );
        if (!other) continue;
        cands.assign(
          other.code,
          `${dotted(c.code)} says "${note.kind === 'ua' ? 'use additional code' : 'code first'}: ${note.text}" and the note states it (I.A.13, I.A.16)`,
          [],
          other.spans,
        );
      }
    }
  }
}

/**
 * Pairs of final codes the Tabular links: a "code first" note at the manifestation names the
 * etiology, a "use additional code" note at the etiology names the manifestation. Returns
 * [etiology, manifestation] pairs.
 */
export function etiologyPairs(cands: Candidates): Array<[Candidate, Candidate]> {
  const it = cands.ctx.it;
  if (!it) return [];
  const finals = cands.finals();
  const out: Array<[Candidate, Candidate]> = [];
  for (const c of finals) {
    for (const note of notesUpOf(cands.ctx, c.code)) {
      if (note.kind !== 'cf' && note.kind !== 'ua') continue;
      for (const ref of note.refs) {
        const covers = refCover(ref);
        for (const o of finals) {
          if (o === c || !covers(o.code)) continue;
          const pair: [Candidate, Candidate] = note.kind === 'cf' ? [o, c] : [c, o];
          if (!out.some(([a, b]) => a === pair[0] && b === pair[1])) out.push(pair);
        }
      }
    }
  }
  // A manifestation the Index gave in brackets follows the code it came with.
  for (const c of finals) {
    if (!c.rule.startsWith('manifestation code') || !c.from?.length) continue;
    if (!out.some(([a, b]) => a === c.from![0] && b === c)) out.push([c.from[0], c]);
  }
  return out;
}

/**
 * Sequencing (I.A.13, I.A.16): the etiology is listed before its manifestation, whatever order
 * the note names them in. Moves each manifestation right after its etiology in the candidate list
 * (the order the final codes are reported in); the rest keep the note's order.
 */
export function sequenceEtiology(cands: Candidates): void {
  const pairs = etiologyPairs(cands);
  const list = cands.list;
  for (let round = 0; round < 4; round++) {
    let moved = false;
    for (const [etiology, manifestation] of pairs) {
      const e = list.indexOf(etiology);
      const m = list.indexOf(manifestation);
      // A pair the other way round too ("code first" both ways) is left in the note's order.
      if (m > e || pairs.some(([a, b]) => a === manifestation && b === etiology)) continue;
      list.splice(m, 1);
      list.splice(list.indexOf(etiology) + 1, 0, manifestation);
      moved = true;
    }
    if (!moved) break;
  }
}
