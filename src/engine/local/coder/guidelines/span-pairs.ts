import { type Candidate, type Candidates, type Span, sentenceAt } from '../candidate.js';
import type { Sentence } from '../sentence-split.js';

/** Each span of `a` with each span of `b` read in the same sentence, and that sentence. */
export function spanPairsInSentence(cands: Candidates, a: Candidate, b: Candidate): Array<[Sentence, Span, Span]> {
  const out: Array<[Sentence, Span, Span]> = [];
  for (const x of a.spans) {
    const s = sentenceAt(cands.ctx, x.start, x.end);
    if (!s) continue;
    for (const y of b.spans) if (sentenceAt(cands.ctx, y.start, y.end) === s) out.push([s, x, y]);
  }
  return out;
}
