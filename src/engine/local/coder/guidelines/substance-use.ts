import { assertWords } from '../assertions.js';
import { dotted, type Candidates } from '../candidate.js';

const REMISSION = /^remission$/;
const SEVERITY = /^(mild|moderate|severe)$/;

/**
 * Psychoactive substance use (I.C.5.b.3): "use, uncomplicated" (F1x.90) is coded only with a
 * disorder or medical condition it causes, which its own code then states; alone it is not coded.
 * (Use, abuse and dependence together: the Tabular's Excludes1 keeps the highest, I.C.5.b.2.)
 *
 * Remission (I.C.5.b.1): abuse or dependence the note says is "in (early, sustained) remission" is
 * the subcategory's "in remission" code (F1x.11, F1x.21), not "uncomplicated"; and the substance it
 * names is coded, not "other psychoactive substance" (F19) read from the same words.
 *
 * Use with abuse or dependence of the same substance anywhere in the note (I.C.5.b.2): only the
 * abuse or dependence is coded.
 *
 * Use disorder (Index: Disorder, <substance> use): "mild" is abuse (F1x.1-), "moderate" or
 * "severe" dependence (F1x.2-), each "in remission" when the note says so; not "use" (F1x.90).
 */
export function applySubstanceUse(cands: Candidates): void {
  codeUseDisorderBySeverity(cands);
  for (const c of cands.finals()) {
    if (!/^F1[0-9]90$/.test(c.code)) continue;
    cands.discard(
      c,
      'Discarded: psychoactive substance use without a related disorder is not coded (guideline I.C.5.b.3); a use that causes a disorder is coded by that disorder.',
    );
  }
  keepAbuseOrDependenceOverUse(cands);
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

/** "<substance> use disorder, mild/moderate/severe" read as use (F1x.90): the abuse or dependence the Index gives. */
function codeUseDisorderBySeverity(cands: Candidates): void {
  const { sentences } = cands.ctx;
  for (const c of cands.finals()) {
    if (!/^F1[0-68]90$/.test(c.code)) continue;
    const si = c.found?.mention.sentence;
    const s = si === undefined ? undefined : sentences[si];
    if (!s) continue;
    const disorder = s.lower.findIndex((w, i) => w === 'disorder' && s.lower[i - 1] === 'use');
    if (disorder < 0) continue;
    const asserted = assertWords(s.words);
    // "severe opioid use disorder" or "opioid use disorder, severe"
    const severity = s.lower.findIndex((w, i) => i >= disorder - 4 && SEVERITY.test(w) && asserted[i] === 'present');
    if (severity < 0) continue;
    const remission = s.lower.findIndex((w, i) => i > disorder && REMISSION.test(w) && asserted[i] === 'present');
    const kind = s.lower[severity] === 'mild' ? '1' : '2';
    const code = `${c.code.slice(0, 3)}${kind}${remission < 0 ? '0' : '1'}`;
    const spans = [severity, remission].filter((at) => at >= 0).map((at) => ({ start: s.starts[at], end: s.ends[at] }));
    if (!cands.assign(dotted(code), 'use disorder by its severity (Index: Disorder, use)', [c], spans)) continue;
    cands.discard(c, `Discarded: a ${s.lower[severity]} use disorder is coded ${dotted(code)} (Index: Disorder, use).`);
  }
}

/** A use (F1x.9-) of a substance whose abuse or dependence (F1x.1-, F1x.2-) is coded goes (I.C.5.b.2). */
function keepAbuseOrDependenceOverUse(cands: Candidates): void {
  for (const c of cands.finals()) {
    if (!/^F1[0-68]9/.test(c.code)) continue;
    const over = cands.finalsIn(`${c.code.slice(0, 3)}1`, `${c.code.slice(0, 3)}2`)[0];
    if (!over) continue;
    cands.discard(c, `Discarded: ${dotted(over.code)} is coded for the same substance; use goes with abuse or dependence (I.C.5.b.2).`);
  }
}
