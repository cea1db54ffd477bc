import { phraseStems } from '../../../../terminology/text-normalize.js';
import { type Candidate, type Candidates, sentenceAt } from '../candidate.js';
import { notesUpOf } from './tabular-notes.js';
import { refCovers } from './tabular-excludes.js';

/** A residual title ("Other specified respiratory disorders"): the class of what another code names. */
const RESIDUAL = /^other\b|\bother specified\b/i;

/**
 * A learned association with a residual code ("other specified ...") or one whose title names what
 * its sentence does not state, read inside the words of a
 * code the note states, in the same chapter ("respiratory infection" of "viral upper respiratory
 * infection", J06.9), codes that condition twice (J98.8): it goes, unless the stated code's Tabular notes ask for it ("use additional code
 * to identify the type of heart failure" at I11.0: "heart failure" of "hypertension with heart
 * failure" stays as I50.9).
 *
 * Why this stays beside the Index lookup: it judges a learned phrase (learned-matcher.ts), which
 * the Index lookup never reads; the Index reading of the same words is the stated code it keeps.
 */
export function applyLearnedRestated(cands: Candidates): void {
  const { table } = cands.ctx;
  const learned = cands.finals().filter((c) => c.origin === 'learned');
  if (learned.length === 0) return;
  const stated = cands.finals().filter((c) => c.origin !== 'learned' && c.origin !== 'rule');
  for (const l of learned) {
    const [ls] = l.spans;
    const within = stated.find(
      (s) =>
        s.code[0] === l.code[0] && s.spans.some((sp) => sp.start <= ls.start && ls.end <= sp.end && sp.end - sp.start > ls.end - ls.start),
    );
    if (!within) continue;
    // Not a residual: only when its title's condition is one the sentence does not state ("urinary
    // tract" of "lower urinary tract symptoms" is no "Urinary tract infection").
    if (!RESIDUAL.test(table.descriptionAt(l.index)) && !saysMore(cands, l)) continue;
    const asked = notesUpOf(cands.ctx, within.code).some(
      (n) => (n.kind === 'ua' || n.kind === 'cf') && n.refs.some((r) => refCovers(r, l.code)),
    );
    if (asked) continue;
    cands.discard(l, `Discarded: an association read inside the words of ${table.dottedAt(within.index)}, which already codes them.`);
  }
}

/** Whether the learned code's title (its first clause) names a word its sentence does not state. */
function saysMore(cands: Candidates, l: Candidate): boolean {
  const [ls] = l.spans;
  const s = sentenceAt(cands.ctx, ls.start, ls.end);
  if (!s) return false;
  const said = new Set(phraseStems(s.lower.join(' ')));
  return phraseStems(cands.ctx.table.descriptionAt(l.index).split(',')[0]).some((t) => !said.has(t));
}
