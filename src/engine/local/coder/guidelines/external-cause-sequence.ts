import type { Candidates } from '../candidate.js';

const EXTERNAL_CAUSE = /^[VWXY]/;

/**
 * External cause codes (V00-Y99) say how and where an injury happened; they are never the
 * first-listed code (I.C.20): they follow every other code, in the note's order.
 */
export function sequenceExternalCauses(cands: Candidates): void {
  const list = cands.list;
  const causes = list.filter((c) => EXTERNAL_CAUSE.test(c.code));
  if (causes.length === 0 || causes.length === list.length) return;
  const rest = list.filter((c) => !EXTERNAL_CAUSE.test(c.code));
  list.splice(0, list.length, ...rest, ...causes);
}
