import { assertWords } from '../assertions.js';
import { type Candidates, sentencesMatching } from '../candidate.js';
import { bestSubterms, subtermsOf } from './index-subterms.js';
import { spansOf } from './status.js';

const EXPOSURE_WORD = /\b(exposure|exposed|contact)\b/gi;
const EXPOSED = /^(exposure|exposed|contact)$/;
const LINK = /^(to|with)$/;
/** How many words after "exposure to" may name what the patient met ("exposure to active pulmonary tuberculosis"). */
const REACH = 5;
/** The communicable diseases and their status codes (B20, Z21, U07.1) a source may have. */
const COMMUNICABLE = /^([AB]|Z21|U07)/;

/**
 * Contact with and exposure to a communicable disease (I.C.21.c.1, Z20): "exposure to HIV",
 * "exposed to tuberculosis", "contact with COVID-19" name what the patient may have met, not a
 * disease the patient has. The Index's "Exposure (to)" subterm the words state is coded (its
 * modifiers too: "human immunodeficiency virus (HIV)"), and the disease read from the same words,
 * or stated again in the sentence of its source ("partner is HIV positive"), is set aside.
 */
export function applyExposure(cands: Candidates): void {
  const { it, table } = cands.ctx;
  if (!it) return;
  const list = subtermsOf(it, 'exposure', 2, /^Z20/, 1);
  for (const s of sentencesMatching(cands.ctx, EXPOSURE_WORD)) {
    const assertions = assertWords(s.words);
    const { stems, from } = s.stems;
    for (let i = 0; i + 1 < s.lower.length; i++) {
      if (!EXPOSED.test(s.lower[i]) || !LINK.test(s.lower[i + 1]) || assertions[i] === 'negated') continue;
      const said = new Map<string, number>();
      for (let k = 0; k < stems.length; k++) {
        const w = from[k];
        if (w > i + 1 && w <= i + 1 + REACH && assertions[w] !== 'negated' && !said.has(stems[k])) said.set(stems[k], w);
      }
      const best = bestSubterms(list, said);
      if (best.length === 0 || new Set(best.map((b) => b.code)).size !== 1) continue;
      const made = cands.assign(
        best[0].code,
        'contact with or exposure to a communicable disease (I.C.21.c.1; Index: Exposure (to))',
        [],
        [...spansOf(s, [i, ...best[0].words])],
      );
      if (!made) continue;
      // The disease the exposure names, in the exposure's words or stated again after them of its source.
      const named = new Set(best[0].words.map((w) => s.lower[w]));
      const after = s.starts[i];
      const end = s.ends[s.ends.length - 1];
      for (const c of cands.finals()) {
        if (c === made || !COMMUNICABLE.test(c.code)) continue;
        const inSentence = c.spans.every((sp) => sp.start >= after && sp.end <= end);
        const says = c.spans.some((sp) => [...named].some((w) => cands.ctx.text.slice(sp.start, sp.end).toLowerCase().includes(w)));
        if (inSentence && says)
          cands.discard(
            c,
            `Discarded: named as what the patient was exposed to (${table.dottedAt(made.index)}), not a disease of the patient (I.C.21.c.1).`,
          );
      }
    }
  }
}
