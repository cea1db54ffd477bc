import type { Candidates } from '../candidate.js';
import { LATER_VISIT } from '../encounter.js';

// Reasons for an encounter: examinations, screening, aftercare, fitting and removal of devices.
const ENCOUNTER_REASON = /^Z(0[0-9]|1[0-3]|4[0-9]|5[0-3])/;

/**
 * A visit the plan arranges ("follow up in 10 days for suture removal") is a later encounter's
 * reason, not this one's (guidelines IV.A: the reason for the encounter is the visit's own): an
 * encounter code read only in such a sentence is discarded, with the words that arrange it.
 */
export function applyPlannedVisits(cands: Candidates): void {
  const { sentences } = cands.ctx;
  for (const c of cands.finals()) {
    if (!ENCOUNTER_REASON.test(c.code) || c.spans.length === 0) continue;
    let arranged: string | undefined;
    for (const span of c.spans) {
      const s = sentences.find((x) => x.starts.length && x.starts[0] <= span.start && span.start <= x.ends[x.ends.length - 1]);
      const text = s ? cands.ctx.text.slice(s.starts[0], s.ends[s.ends.length - 1]) : '';
      const m = new RegExp(LATER_VISIT.source, 'i').exec(text);
      if (!m) {
        arranged = undefined;
        break;
      }
      arranged ??= m[0];
    }
    if (arranged)
      cands.discard(c, `Discarded: "${arranged}" arranges a later visit; its reason is not this encounter's (guidelines IV.A).`);
  }
}
