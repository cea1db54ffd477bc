import { wordStems } from '../../../../terminology/text-normalize.js';
import { type Candidate, type Candidates, dotted, sentenceAt, type Span } from '../candidate.js';
import { completeCode } from '../complete-code.js';
import { ACUTE, acuityOnPath, CHRONIC, siblingAcuity, SUBACUTE } from './acute-and-chronic.js';

/**
 * An acuity belongs to the condition it is stated with: "acute systolic heart failure and chronic
 * kidney disease" is acute heart failure (I50.21) and chronic kidney disease. An Index reading that
 * took its acuity from words another coded condition states ("chronic" of "chronic kidney
 * disease"), while the other acuity is stated with its own condition, is read at that acuity's
 * sibling subentry instead.
 */
export function applyAcuityOwner(cands: Candidates): void {
  const { it, table, indexTerms } = cands.ctx;
  if (!it || !indexTerms) return;
  for (const c of cands.finals()) {
    if (c.origin === 'rule') continue;
    const term = c.found?.mention.indexTerm ?? indexTerms.get(c.index);
    if (term === undefined) continue;
    const read = acuityOnPath(it, term);
    if (!read) continue;
    const own = read.stem === CHRONIC ? [CHRONIC] : [ACUTE, SUBACUTE];
    const other = read.stem === CHRONIC ? [ACUTE, SUBACUTE] : [CHRONIC];
    const others = cands.finals().filter((o) => o !== c && !o.from?.includes(c) && !c.from?.includes(o));
    const ownWords = stated(cands, c, own);
    if (ownWords.length === 0 || !ownWords.every((w) => others.some((o) => within(w, o.spans)))) continue;
    const otherWords = stated(cands, c, other, 2);
    if (otherWords.length === 0 || otherWords.some((w) => others.some((o) => within(w, o.spans)))) continue;
    const sibling = siblingAcuity(it, read.at, read.stem);
    if (sibling === undefined) continue;
    const index = completeCode(table, it.codeOf(sibling), { present: { has: () => false }, negated: new Set() });
    if (index === undefined || index === c.index) continue;
    const made = cands.assign(table.codeAt(index), 'the acuity stated with the condition (not the one of the condition after it)', [c]);
    if (!made || made === c) continue;
    // Reported where the note states the condition.
    const list = cands.list;
    list.splice(list.indexOf(made), 1);
    list.splice(list.indexOf(c), 0, made);
    cands.discard(c, `Discarded: its acuity is stated of another condition; coded ${dotted(made.code)}.`);
  }
}

/** The spans of the words in the candidate's evidence (and the `before` words before it) that state one of the acuities. */
function stated(cands: Candidates, c: Candidate, stems: readonly string[], before = 0): Span[] {
  const out: Span[] = [];
  for (const span of c.spans) {
    const s = sentenceAt(cands.ctx, span.start, span.end);
    if (!s) continue;
    let first = s.starts.findIndex((st) => st >= span.start);
    if (first < 0) continue;
    first = Math.max(0, first - before);
    for (let w = first; w < s.words.length; w++)
      if (s.starts[w] >= s.starts[first] && s.ends[w] <= span.end && wordStems(s.lower[w]).some((x) => stems.includes(x)))
        out.push({ start: s.starts[w], end: s.ends[w] });
  }
  return out;
}

const within = (w: Span, spans: readonly Span[]) => spans.some((sp) => sp.start <= w.start && w.end <= sp.end);
