import { type Candidate, type Candidates, sentenceAt } from '../candidate.js';

const AFTER = new Set(['after', 'following', 'since', 'post', 'from']);
const AGO = /^(ago|previously|prior)$/;

/**
 * Whether the note states a condition as a past event: named as the cause another condition
 * followed ("syndrome after a concussion"), or dated to the past ("a concussion last year", "two
 * years ago"). An Excludes1 note of a "current" condition ("current concussion (S06.0-)") does not
 * exclude it then: it is the antecedent, not a current injury.
 */
export function statedAsPast(cands: Candidates, c: Candidate): boolean {
  const span = c.spans[0];
  const s = span && sentenceAt(cands.ctx, span.start, span.end);
  if (!s) return false;
  const at = s.starts.findIndex((x) => x >= span.start);
  if (at < 0) return false;
  const before = s.lower.slice(Math.max(0, at - 3), at);
  if (before.some((w) => AFTER.has(w))) return true;
  const rest = s.lower.slice(at);
  return rest.some((w, k) => AGO.test(w) || (w === 'last' && /^(year|month|week|summer|winter|spring|fall)s?$/.test(rest[k + 1] ?? '')));
}
