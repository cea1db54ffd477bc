import { type Candidates, dotted, sameCategory, type Span } from '../candidate.js';
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
  // Each title read and lowered once, when first compared (not once per pair of finals).
  const titles: Array<string | undefined> = [];
  const title = (j: number) => (titles[j] ??= table.descriptionAt(finals[j].index));
  for (let i = 0; i < finals.length; i++) {
    const u = finals[i];
    const head = UNSPECIFIED_HEAD.exec(title(i).toLowerCase())?.[1];
    if (!head || u.spans.length === 0) continue;
    const word = new RegExp(`\\b${head}\\b`);
    // (The cheap tests first: most finals are read from other words.)
    const j = finals.findIndex(
      (s, j) =>
        s !== u &&
        s.final &&
        s.origin !== 'learned' &&
        !sameCategory(s.code, u.code) &&
        within(u.spans, s.spans) &&
        !/\bunspecified\b/i.test(title(j)) &&
        word.test(title(j).toLowerCase()) &&
        // I11.0 "... with heart failure" asks for the type of heart failure (I50.-): both are coded.
        !notedBetween(cands, s, u, 'ua', 'cf', 'ca', 'x2'),
    );
    if (j >= 0)
      cands.discard(
        u,
        `Discarded: unspecified, and the same words state ${dotted(finals[j].code)} "${title(j)}" (guidelines I.A.9, I.B.2).`,
      );
  }
}

/** Whether every span of `inner` lies inside one of `outer`. */
function within(inner: readonly Span[], outer: readonly Span[]): boolean {
  for (const q of inner) {
    let inside = false;
    for (const p of outer) if (p.start <= q.start && q.end <= p.end) inside = true;
    if (!inside) return false;
  }
  return true;
}
