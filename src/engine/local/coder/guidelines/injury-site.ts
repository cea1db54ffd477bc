import { wordStems } from '../../../../terminology/text-normalize.js';
import type { Candidates } from '../candidate.js';

/** Title words of a site that say which one, not where: the side and the unspecified part. */
const NOT_A_SITE = new Set(['right', 'left', 'unspecifi', 'unspecified', 'part', 'other', 'multipl', 'multiple', 'site', 'and']);

/**
 * An injury is coded by the site the note states (I.C.19; Index: Bite, forearm; Wound, open,
 * hand). A title read from the note's words without its site ("puncture wounds" read as the
 * puncture wound of the lip) names a site the note nowhere states: it is not coded. The Index's
 * own readings follow the site words stated and are not second-guessed here.
 *
 * Why this stays beside the Index lookup: both checks judge readings the Index lookup does not
 * make (titles read from a few words, learned phrases, and the puncture wound a title match reads
 * inside "bite ... puncture wounds"), and the lookup cannot withdraw another matcher's reading.
 */
export function applyInjurySite(cands: Candidates): void {
  statedSite(cands);
  biteWounds(cands);
}

function statedSite(cands: Candidates): void {
  const { table, sentences } = cands.ctx;
  const read = cands.finalsIn('S').filter((c) => c.origin === 'description' || c.origin === 'learned');
  if (read.length === 0) return;
  const noteStems = new Set<string>();
  for (const s of sentences) for (const w of s.lower) for (const st of wordStems(w)) noteStems.add(st);
  for (const c of read) {
    const title = table.descriptionAt(c.index).toLowerCase().split(', ')[0];
    const at = title.lastIndexOf(' of ');
    if (at < 0) continue;
    const site = wordStems(title.slice(at + 4).replace(/\b(with|without)\b.*$/, '')).filter((s) => !NOT_A_SITE.has(s));
    if (site.length === 0 || site.some((s) => noteStems.has(s))) continue;
    cands.discard(
      c,
      `Discarded: the title names the ${title.slice(at + 4)}, a site the note does not state; an injury is coded by the site stated (I.C.19).`,
    );
  }
}

/**
 * The puncture wounds or lacerations of a bite are the bite: an open bite of a site and side
 * (S51.85-) is the code of that wound, not also the puncture wound of it (S51.83-) (Index: Bite,
 * forearm, see Bite, open wound).
 */
function biteWounds(cands: Candidates): void {
  const { table } = cands.ctx;
  const wounds = cands.finalsIn('S');
  const bites = wounds.filter((c) => table.descriptionAt(c.index).toLowerCase().startsWith('open bite'));
  for (const b of bites)
    for (const c of wounds) {
      if (c === b || c.code.slice(0, 4) !== b.code.slice(0, 4) || c.code[5] !== b.code[5]) continue;
      if (!/^(puncture wound|laceration)/i.test(table.descriptionAt(c.index))) continue;
      cands.discard(c, `Discarded: the wound is the bite, coded ${table.dottedAt(b.index)} (open bite of the same site).`);
    }
}
