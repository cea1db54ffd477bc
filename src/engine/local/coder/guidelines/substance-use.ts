import type { Candidates } from '../candidate.js';

/**
 * Psychoactive substance use (I.C.5.b.3): "use, uncomplicated" (F1x.90) is coded only with a
 * disorder or medical condition it causes, which its own code then states; alone it is not coded.
 * (Use, abuse and dependence together: the Tabular's Excludes1 keeps the highest, I.C.5.b.2.)
 */
export function applySubstanceUse(cands: Candidates): void {
  for (const c of cands.finals()) {
    if (!/^F1[0-9]90$/.test(c.code)) continue;
    cands.discard(
      c,
      'Discarded: psychoactive substance use without a related disorder is not coded (guideline I.C.5.b.3); a use that causes a disorder is coded by that disorder.',
    );
  }
}
