import { assertWords } from '../assertions.js';
import { type Candidate, type Candidates, dotted, sentenceAt } from '../candidate.js';
import type { Sentence } from '../sentence-split.js';

// The words that state a relapse of the condition they are said of.
const RELAPSE = /^(relapse|relapsed|relapsing)$/;
const AXIS = /\s+(not having achieved remission|in (\w+ )?remission|in relapse)$/i;

/**
 * Relapse is its own Tabular axis beside remission (C90.02 "Multiple myeloma in relapse", C91.02,
 * C92.02): a leukemia or plasma cell neoplasm coded "not having achieved remission" whose own
 * sentence states a relapse is coded to its sibling "in relapse" (the same title, the other axis).
 */
export function applyRelapse(cands: Candidates): void {
  const { ctx } = cands;
  if (!/relaps/i.test(ctx.text)) return;
  for (const c of cands.statedIn('C8', 'C9')) toRelapse(cands, c);
}

function toRelapse(cands: Candidates, c: Candidate): void {
  const { table } = cands.ctx;
  const title = table.descriptionAt(c.index);
  if (!/not having achieved remission$/i.test(title)) return;
  if (!c.spans.some((sp) => statesRelapse(sentenceAt(cands.ctx, sp.start, sp.end)))) return;
  const base = title.replace(AXIS, '').toLowerCase();
  const sibling = table
    .descendantsOf(c.code.slice(0, -1))
    .find((r) => r.billable && / in relapse$/i.test(r.description) && r.description.replace(AXIS, '').toLowerCase() === base);
  if (!sibling) return;
  const made = cands.assign(sibling.code, "the note states a relapse, the Tabular's own axis beside remission", [c]);
  if (made && made !== c) cands.discard(c, `Discarded: the note states a relapse; coded ${dotted(sibling.code)} instead.`);
}

/** The sentence states a relapse, present and not negated ("no relapse", "not in relapse"). */
function statesRelapse(s: Sentence | undefined): boolean {
  if (!s) return false;
  const said = assertWords(s.words, s.lower);
  return s.lower.some((w, i) => {
    if (!RELAPSE.test(w) || said[i] !== 'present') return false;
    const before = s.lower.slice(Math.max(0, i - 3), i);
    return !before.some((b) => b === 'not' || b === 'no' || b === 'never' || b === 'without');
  });
}
