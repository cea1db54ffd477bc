import { assertWords } from '../assertions.js';
import { dotted, type Candidates } from '../candidate.js';

const REMISSION = /^remission$/;

/**
 * Psychoactive substance use (I.C.5.b.3): "use, uncomplicated" (F1x.90) is coded only with a
 * disorder or medical condition it causes, which its own code then states; alone it is not coded.
 * (Use, abuse and dependence together: the Tabular's Excludes1 keeps the highest, I.C.5.b.2.)
 *
 * Remission (I.C.5.b.1): abuse or dependence the note says is "in (early, sustained) remission" is
 * the subcategory's "in remission" code (F1x.11, F1x.21), not "uncomplicated"; and the substance it
 * names is coded, not "other psychoactive substance" (F19) read from the same words.
 */
export function applySubstanceUse(cands: Candidates): void {
  for (const c of cands.finals()) {
    if (!/^F1[0-9]90$/.test(c.code)) continue;
    cands.discard(
      c,
      'Discarded: psychoactive substance use without a related disorder is not coded (guideline I.C.5.b.3); a use that causes a disorder is coded by that disorder.',
    );
  }
  const { sentences } = cands.ctx;
  const made = new Set<number>();
  for (const c of cands.finals()) {
    if (!/^F1[0-68][12]0$/.test(c.code)) continue;
    const si = c.found?.mention.sentence;
    const s = si === undefined ? undefined : sentences[si];
    if (!s) continue;
    const asserted = assertWords(s.words);
    const at = s.lower.findIndex((w, i) => REMISSION.test(w) && asserted[i] === 'present');
    if (at < 0) continue;
    const code = `${c.code.slice(0, 4)}1`;
    const r = cands.assign(dotted(code), 'abuse or dependence in remission (I.C.5.b.1)', [c], [{ start: s.starts[at], end: s.ends[at] }]);
    if (!r) continue;
    cands.discard(c, `Discarded: the note says it is in remission; coded ${dotted(code)} (I.C.5.b.1).`);
    made.add(si!);
  }
  if (made.size === 0) return;
  const { text } = cands.ctx;
  for (const c of cands.finalsIn('F1911', 'F1921')) {
    // "Polysubstance dependence in remission" is F19 in its own right; "dependence, in remission" after a named drug is that drug.
    if (c.spans.some((sp) => /polysubstance|psychoactive|multiple|other/i.test(text.slice(sp.start, sp.end)))) continue;
    cands.discard(c, 'Discarded: the substance in remission is named, and coded by its own category (I.C.5.b.1).');
  }
}
