import { phraseStems } from '../../../../terminology/text-normalize.js';
import { type Candidates, dotted } from '../candidate.js';

// Status codes (I.C.21.c.3): acquired absence, openings, transplants, implants, postprocedural states, dependence.
const STATUS = /^Z(89|90|9[3-9])/;
// The words every status title has, which say nothing of what the status is.
const STATUS_WORDS = new Set(phraseStems('presence status acquired absence dependence on'));

/**
 * A status code is not assigned with a code that already says it (I.C.21.c.3: "a status code should
 * not be used with a diagnosis code from one of the body system chapters, if the diagnosis code
 * includes the information provided by the status code": Z94.1 not with T86.2-), nor with the
 * encounter to fit, adjust or attend to the same device or opening (Z45.010 for the pacemaker, not
 * Z95.0). The other code says it when its title holds every word that names the status in the
 * status code's title or inclusion terms ("Kidney transplant rejection" holds "kidney transplant").
 */
export function applyStatusSaidElsewhere(cands: Candidates): void {
  const { it, table } = cands.ctx;
  const finals = cands.finals();
  if (!finals.some((c) => STATUS.test(c.code))) return;
  for (const z of finals) {
    if (!STATUS.test(z.code)) continue;
    const names = [table.descriptionAt(z.index), ...(it?.notes(dotted(z.code)) ?? []).filter((n) => n.kind === 'inc').map((n) => n.text)]
      .map((text) => phraseStems(text).filter((w) => !STATUS_WORDS.has(w)))
      .filter((words) => words.length > 0);
    for (const other of finals) {
      if (other === z || !other.final || /^Z(8[5-9]|9)/.test(other.code)) continue;
      const title = new Set(phraseStems(table.descriptionAt(other.index)));
      if (!names.some((words) => words.every((w) => title.has(w)))) continue;
      cands.discard(z, `Discarded: ${dotted(other.code)} already says the status ${dotted(z.code)} states (I.C.21.c.3).`);
      break;
    }
  }
}
