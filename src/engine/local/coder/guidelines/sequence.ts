import type { Candidate, Candidates } from '../candidate.js';
import { drugTablePlace } from './drug-table.js';
import { noteRefCover } from './tabular-excludes.js';
import { notesUpOf } from './tabular-notes.js';

/**
 * The order the final codes are reported in (the candidate list's order), after every other
 * guideline has chosen them. The note's order, then, each pass moving only what it concerns:
 * - the etiology before its manifestation (I.A.13, I.A.16);
 * - poisonings first, adverse effects and underdosing after the conditions (I.C.19.e.5);
 * - the examination the visit is for first, a sequela's injury code after its condition (I.C.21.c.13, I.B.10);
 * - external causes after every other code (I.C.20).
 */
export function sequenceCodes(cands: Candidates): void {
  sequenceEtiology(cands);
  sequenceDrugTable(cands);
  sequenceFirstListed(cands);
  sequenceExternalCauses(cands);
}

/**
 * Pairs of final codes the Tabular links: a "code first" note at the manifestation names the
 * etiology, a "use additional code" note at the etiology names the manifestation. Returns
 * [etiology, manifestation] pairs.
 */
function etiologyPairs(cands: Candidates): Array<[Candidate, Candidate]> {
  const it = cands.ctx.it;
  if (!it) return [];
  const finals = cands.finals();
  const out: Array<[Candidate, Candidate]> = [];
  for (const c of finals) {
    for (const note of notesUpOf(cands.ctx, c.code)) {
      if (note.kind !== 'cf' && note.kind !== 'ua') continue;
      for (const ref of note.refs) {
        const covers = noteRefCover(note, ref);
        for (const o of finals) {
          if (o === c || !covers(o.code)) continue;
          const etiology = note.kind === 'cf' ? o : c;
          const manifestation = note.kind === 'cf' ? c : o;
          if (!hasPair(out, etiology, manifestation)) out.push([etiology, manifestation]);
        }
      }
    }
  }
  // A manifestation the Index gave in brackets follows the code it came with.
  for (const c of finals) {
    if (!c.rule.startsWith('manifestation code') || !c.from?.length) continue;
    if (!hasPair(out, c.from[0], c)) out.push([c.from[0], c]);
  }
  return out;
}

function hasPair(pairs: ReadonlyArray<readonly [Candidate, Candidate]>, etiology: Candidate, manifestation: Candidate): boolean {
  for (const [a, b] of pairs) if (a === etiology && b === manifestation) return true;
  return false;
}

/**
 * The etiology before its manifestation (I.A.13, I.A.16), whatever order the note names them in:
 * each manifestation moves right after its etiology; the rest keep the note's order.
 */
function sequenceEtiology(cands: Candidates): void {
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

/** Poisonings first (I.C.19.e.5.b); adverse effects and underdosing after the conditions (5.a, 5.c), with their noncompliance codes. */
function sequenceDrugTable(cands: Candidates): void {
  const list = cands.list;
  const first = list.filter((c) => c.final && drugTablePlace(c) === 'first');
  const last = list.filter((c) => c.final && drugTablePlace(c) === 'last');
  if (!first.length && !last.length) return;
  const rest = list.filter((c) => !first.includes(c) && !last.includes(c));
  list.length = 0;
  list.push(...first, ...rest, ...last);
}

// The encounter codes the guidelines list first when the visit is for them: a routine examination
// (Z00.0-, Z00.1-, I.C.21.c.13), a follow-up examination after completed treatment (Z08, Z09, I.C.21.c.8),
// a preoperative examination (Z01.81-, I.C.21.c.16).
const FIRST = /^(Z000|Z001|Z0181|Z08$|Z09$)/;

/**
 * The examination the visit is for before its findings (I.C.21.c.13, "Z00.01 ... use additional
 * code to identify abnormal findings"), and a sequela's injury code (7th character S) after the
 * condition it left (I.B.10, I.C.19.a: "the specific type of sequela (e.g. scar) is sequenced
 * first, followed by the injury code").
 */
function sequenceFirstListed(cands: Candidates): void {
  const list = cands.list;
  const first: Candidate[] = [];
  const last: Candidate[] = [];
  const middle: Candidate[] = [];
  for (const c of list) {
    if (c.final && FIRST.test(c.code)) first.push(c);
    else if (c.final && c.code.length === 7 && c.code.endsWith('S') && /^[ST]/.test(c.code)) last.push(c);
    else middle.push(c);
  }
  if (first.length === 0 && last.length === 0) return;
  list.splice(0, list.length, ...first, ...middle, ...last);
}

const EXTERNAL_CAUSE = /^[VWXY]/;

/**
 * External cause codes (V00-Y99) say how and where an injury happened; they are never the
 * first-listed code (I.C.20): they follow every other code, in the note's order.
 */
function sequenceExternalCauses(cands: Candidates): void {
  const list = cands.list;
  const causes = list.filter((c) => EXTERNAL_CAUSE.test(c.code));
  if (causes.length === 0 || causes.length === list.length) return;
  const rest = list.filter((c) => !EXTERNAL_CAUSE.test(c.code));
  list.splice(0, list.length, ...rest, ...causes);
}
