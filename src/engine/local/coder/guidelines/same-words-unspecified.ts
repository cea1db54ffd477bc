import { type Candidates, dotted } from '../candidate.js';
import { notedBetween } from './tabular-excludes.js';

const UNSPECIFIED_HEAD = /^([a-z][a-z '-]*), unspecified$/;

/**
 * A code titled "<condition>, unspecified" read from words that another code, of another category,
 * states whole and names the condition in ("septic shock": R57.9 "Shock, unspecified" inside R65.21
 * "Severe sepsis with septic shock"; the Index: Shock, septic R65.21): the unspecified code says
 * less than the code the same words are indexed to (I.A.9, I.B.2), and is not coded beside it.
 * A code read only by a learned association is no reason to drop another, nor is a code whose
 * Tabular notes ask for the other beside it.
 */
export function applySameWordsUnspecified(cands: Candidates): void {
  const { table } = cands.ctx;
  const finals = cands.finals();
  for (const u of finals) {
    const head = UNSPECIFIED_HEAD.exec(table.descriptionAt(u.index).toLowerCase())?.[1];
    if (!head || u.spans.length === 0) continue;
    const word = new RegExp(`\\b${head}\\b`);
    const specific = finals.find(
      (s) =>
        s !== u &&
        s.final &&
        s.origin !== 'learned' &&
        s.code.slice(0, 3) !== u.code.slice(0, 3) &&
        !/\bunspecified\b/i.test(table.descriptionAt(s.index)) &&
        word.test(table.descriptionAt(s.index).toLowerCase()) &&
        u.spans.every((q) => s.spans.some((p) => p.start <= q.start && q.end <= p.end)) &&
        // I11.0 "... with heart failure" asks for the type of heart failure (I50.-): both are coded.
        !notedBetween(cands, s, u, 'ua', 'cf', 'ca', 'x2'),
    );
    if (specific)
      cands.discard(
        u,
        `Discarded: unspecified, and the same words state ${dotted(specific.code)} "${table.descriptionAt(specific.index)}" (guidelines I.A.9, I.B.2).`,
      );
  }
}
