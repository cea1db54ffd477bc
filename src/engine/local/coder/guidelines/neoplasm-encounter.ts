import { assertWords } from '../assertions.js';
import type { Candidate, Candidates } from '../candidate.js';
import { sentencesMatching } from '../candidate.js';

// Guideline I.C.2.e.2: an encounter solely for antineoplastic chemotherapy, immunotherapy or
// radiation therapy lists Z51.11, Z51.12 or Z51.0 first, then the malignancy; the codes are the
// Index's ("Encounter, chemotherapy for neoplasm Z51.11"; "Encounter, immunotherapy for neoplasm
// Z51.12"; "Encounter, radiation therapy (antineoplastic) Z51.0"). I.C.6.b.5 and I.C.2.c.3: when the
// encounter is for pain control of a neoplasm (G89.3), or for the dehydration it caused, that code is first.
const THERAPY = /\b(chemotherapy|chemo|immunotherapy|radiation therapy|radiotherapy)\b/gi;
const ENCOUNTER_SUBTERM: Array<[RegExp, RegExp]> = [
  [/^(chemotherapy|chemo)$/, /^chemotherapy\b/],
  [/^immunotherapy$/, /^immunotherapy\b/],
  [/^(radiation|radiotherapy)$/, /^radiation therapy\b/],
];
// Words that say the visit is for what follows ("admitted for chemotherapy", "here for cycle 3 of chemotherapy").
const REASON = /^(admitted|admission|admit|encounter|visit|here|presents|presented|scheduled|comes|came|seen|returns)$/;
const MALIGNANT = /^(C|D0)/;

/** The Index's encounter code for a therapy word ("Encounter (for), chemotherapy for neoplasm" Z51.11). */
function encounterCode(cands: Candidates, word: string): string | undefined {
  const it = cands.ctx.it!;
  const want = ENCOUNTER_SUBTERM.find(([w]) => w.test(word))?.[1];
  if (!want) return undefined;
  for (const m of it.mainTerms('encounter'))
    for (const c of it.children(m)) if (want.test(it.titleOf(c).toLowerCase()) && it.codeOf(c)) return it.codeOf(c);
  return undefined;
}

/** Whether a sentence says the visit is for the words at [i, j): a reason word and "for" within the few words before. */
function visitFor(lower: readonly string[], i: number): boolean {
  const before = lower.slice(Math.max(0, i - 6), i);
  const f = before.lastIndexOf('for');
  return f >= 0 && before.slice(0, f).some((w) => REASON.test(w));
}

/** Moves `c` to the front of the list (or right after `after` codes already placed first). */
function first(cands: Candidates, c: Candidate, placed: Candidate[]): void {
  const list = cands.list;
  list.splice(list.indexOf(c), 1);
  list.splice(placed.length, 0, c);
  placed.push(c);
}

export function applyNeoplasmEncounter(cands: Candidates): void {
  const { it } = cands.ctx;
  if (!it) return;
  const malignant = cands.finalsIn('C', 'D0').filter((c) => MALIGNANT.test(c.code));
  if (!malignant.length) return;
  const placed: Candidate[] = [];
  for (const s of sentencesMatching(cands.ctx, THERAPY)) {
    const asserted = assertWords(s.words);
    for (let i = 0; i < s.lower.length; i++) {
      const code = /^(chemotherapy|chemo|immunotherapy|radiation|radiotherapy)$/.test(s.lower[i])
        ? encounterCode(cands, s.lower[i])
        : undefined;
      if (!code || (s.lower[i] === 'radiation' && s.lower[i + 1] !== 'therapy')) continue;
      if (asserted[i] !== 'present' || !visitFor(s.lower, i)) continue;
      const end = s.lower[i] === 'radiation' ? i + 1 : i;
      const made = cands.assign(
        code,
        'encounter for antineoplastic therapy, listed first (guideline I.C.2.e.2)',
        [],
        [{ start: s.starts[i], end: s.ends[end] }],
      );
      if (made && !placed.includes(made)) first(cands, made, placed);
    }
  }
  // Pain control or dehydration the visit is for, due to the neoplasm: first (I.C.6.b.5, I.C.2.c.3).
  if (placed.length) return;
  for (const c of cands.finalsIn('G893', 'E86')) {
    const s = cands.ctx.sentences.find((x) => x.starts[0] <= c.spans[0].start && c.spans[0].start <= x.ends[x.ends.length - 1]);
    if (!s) continue;
    const at = s.starts.findIndex((x) => x >= c.spans[0].start);
    const control = s.lower.findIndex((w, k) => w === 'pain' && /^(control|management)$/.test(s.lower[k + 1] ?? ''));
    if (visitFor(s.lower, at) || (c.code === 'G893' && control >= 0 && visitFor(s.lower, control))) first(cands, c, placed);
  }
}
