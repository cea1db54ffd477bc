import { assertWords } from '../assertions.js';
import type { Candidates, Span } from '../candidate.js';

/** The reason for the visit is stated first: its first sentences, within their first words. */
const REASON_SENTENCES = 2;
const REASON_WORDS = 6;
const FOLLOW_UP = /^(follow-?up|recheck|re-check)$/;
// A follow-up the plan arranges: "follow up in 2 weeks", "will recheck", "return as needed".
const LATER =
  /\b(in (\d+|a|an|one|two|three|four|six|several|a few) (days?|weeks?|months?|years?)|will|return|schedule|scheduled|next|prn|as needed)\b/i;
// A treatment the note says is over: "finished ten days of amoxicillin for ...", "completed radiation".
const FINISHED = /^(finished|finishing|completed|completing|complete|done)$/;
// Words that keep the condition followed up current (I.C.21.c.8: a recurrence is coded instead).
const STILL = new Set(['still', 'persistent', 'persists', 'recurrent', 'recurred', 'worse', 'worsening', 'ongoing', 'residual']);

/**
 * Follow-up after completed treatment (I.C.21.c.8): a visit whose stated reason is a follow-up
 * or a recheck of a condition the note says has been treated and no longer exists is coded by the
 * Index's "Examination, follow-up" subterm, Z08 after a malignant neoplasm (with its history code,
 * Z85), Z09 after anything else; a condition the finished treatment was for is not coded. A
 * follow-up the plan arranges is a later visit's reason (IV.A).
 */
export function applyFollowUp(cands: Candidates): void {
  const { sentences, text, table } = cands.ctx;
  let reason: Span | undefined;
  for (const s of sentences.slice(0, REASON_SENTENCES)) {
    const at = s.lower.findIndex((w, i) => i < REASON_WORDS && (FOLLOW_UP.test(w) || (w === 'follow' && s.lower[i + 1] === 'up')));
    if (at < 0) continue;
    const said = text.slice(s.starts[0], s.ends[s.ends.length - 1]);
    if (LATER.test(said)) continue;
    reason = { start: s.starts[at], end: s.ends[s.lower[at] === 'follow' ? at + 1 : at] };
    break;
  }
  if (!reason) return;
  if (sentences.some((s) => s.lower.some((w, i) => STILL.has(w) && assertWords(s.words)[i] === 'present'))) return;
  // What the finished treatment was for ("finished ... for left otitis media"): treated, no longer there.
  const treated = cands.finals().filter((c) => {
    if (/^[Z]/.test(c.code)) return false;
    return c.spans.every((sp) => {
      const s = sentences.find((x) => x.starts[0] <= sp.start && sp.end <= x.ends[x.ends.length - 1]);
      if (!s) return false;
      const w = s.starts.findIndex((st) => st >= sp.start);
      return s.lower.slice(0, w).some((x) => FINISHED.test(x)) && s.lower.slice(0, w).includes('for');
    });
  });
  const malignancy = cands.finalsIn('Z85').length > 0;
  const history = cands.finalsIn('Z85', 'Z86', 'Z87').length > 0;
  if (!history && treated.length === 0) return;
  // Any other current condition is the visit's diagnosis: then it is no follow-up of a finished treatment.
  if (cands.finals().some((c) => !/^[Z]/.test(c.code) && !treated.includes(c))) return;
  const code = malignancy ? 'Z08' : 'Z09';
  const made = cands.assign(
    code,
    `follow-up examination after completed treatment (I.C.21.c.8; Index: Examination, follow-up)`,
    [],
    [reason],
  );
  if (!made) return;
  for (const c of treated)
    cands.discard(
      c,
      `Discarded: its treatment is finished and the visit is its follow-up, coded ${table.dottedAt(made.index)} (I.C.21.c.8).`,
    );
}
