import type { Candidate, Candidates } from '../candidate.js';

// The encounter codes the guidelines list first when the visit is for them: a routine examination
// (Z00.0-, Z00.1-, I.C.21.c.13), a follow-up examination after completed treatment (Z08, Z09, I.C.21.c.8).
const FIRST = /^(Z000|Z001|Z08$|Z09$)/;

/**
 * Sequencing beyond etiology and manifestation: the examination the visit is for before its
 * findings (I.C.21.c.13, "Z00.01 ... use additional code to identify abnormal findings"), and a
 * sequela's injury code (7th character S) after the condition it left (I.B.10, I.C.19.a: "the
 * specific type of sequela (e.g. scar) is sequenced first, followed by the injury code").
 */
export function sequenceFirstListed(cands: Candidates): void {
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
