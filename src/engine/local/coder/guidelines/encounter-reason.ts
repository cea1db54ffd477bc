import type { IndexTabular } from '../../../../terminology/index-tabular.js';
import { phraseStems, stemWords } from '../../../../terminology/text-normalize.js';
import { assertWords } from '../assertions.js';
import type { Candidates, Span } from '../candidate.js';
import type { Sentence } from '../sentence-split.js';
import { bestSubterms, subtermsOf, type Subterm } from './index-subterms.js';

/** The reason for the visit is stated first: its first sentences. */
const REASON_SENTENCES = 2;
/** Words that say the visit or the stay is for something: "Admitted for", "Encounter for", "here for". */
const VISIT = /^(encounter|admitted|admission|readmitted|here|visit|presents|presented|seen|returns|comes)$/;
// A treatment the plan arranges is a later visit's reason (IV.A), not this one's.
const PLANNED = /^(next|will|plan|planned|plans|refer|referred|recommend|recommended|consider|tomorrow|later|future|candidate)$/;
/** How many words may stand between the visit's word and its "for" ("is here today for"). */
const TO_FOR = 3;
/**
 * The Index's encounter codes read here: not the examinations, screenings and follow-ups other
 * rules read (Z00-Z02, Z08-Z13), nor the Index's "specified NEC" (Z76.89).
 */
const KEEP = /^Z(?!0[0-2]|0[89]|1[0-3]|76\.89)/;
const NEOPLASM = /^(C|D[0-4])/;
const COUNSEL = phraseStems('counseling')[0];
/** "Counseling > medical > human immunodeficiency virus": the Index repeats a kind under "medical". */
const COUNSEL_DEPTH = 2;

/**
 * An encounter for a treatment or a service (I.C.21.c, I.C.2.e.2): "Admitted for chemotherapy",
 * "Encounter for radiation therapy", "here for her cycle of immunotherapy". The words after the
 * visit's "for" are read in the Alphabetic Index under "Encounter (for)" and "Admission (for)": the
 * subterm they state ("chemotherapy for neoplasm" Z51.11, "radiation therapy (antineoplastic)"
 * Z51.0, "intrauterine device management" Z30.431), "for neoplasm" stated by a neoplasm the note
 * codes. The encounter code is listed first, the condition treated after it.
 */
export function applyEncounterReason(cands: Candidates): void {
  const { it, sentences } = cands.ctx;
  if (!it) return;
  const extra = cands.statedIn('').some((c) => NEOPLASM.test(c.code)) ? phraseStems('neoplasm antineoplastic') : [];
  for (const s of sentences.slice(0, REASON_SENTENCES)) {
    const at = reasonStart(s);
    if (at < 0 || s.lower.some((w) => PLANNED.test(w))) continue;
    const found = indexEncounter(it, s, at, extra);
    if (!found) continue;
    const spans: Span[] = found.words.filter((w) => w >= 0).map((w) => ({ start: s.starts[w], end: s.ends[w] }));
    const made = cands.assign(
      found.code,
      'encounter for the treatment or service the visit is for (I.C.21.c; Index: Encounter (for))',
      [],
      spans,
    );
    if (!made) continue;
    cands.list.splice(cands.list.indexOf(made), 1);
    cands.list.unshift(made);
    return;
  }
}

/** The word after the visit's "for", or -1 when the sentence states no visit for something. */
function reasonStart(s: Sentence): number {
  for (let i = 0; i < s.lower.length; i++) {
    if (!VISIT.test(s.lower[i])) continue;
    for (let k = i + 1; k <= i + 1 + TO_FOR && k < s.lower.length; k++) if (s.lower[k] === 'for') return k + 1;
  }
  return -1;
}

/** The "Encounter (for)" or "Admission (for)" subterm the words from `at` state best. */
function indexEncounter(
  it: IndexTabular,
  s: Sentence,
  at: number,
  extra: readonly string[],
): { code: string; words: number[] } | undefined {
  const assertions = assertWords(s.words);
  const { stems, from } = stemWords(s.words);
  const said = new Map<string, number>();
  for (let k = 0; k < stems.length; k++) {
    const w = from[k];
    if (w < at || assertions[w] !== 'present' || said.has(stems[k])) continue;
    said.set(stems[k], w);
  }
  if (said.size === 0) return undefined;
  for (const stem of extra) if (!said.has(stem)) said.set(stem, -1);
  // "Encounter (for)" sends counseling to "Counseling (for)" (read when the reason says counseling,
  // with its modifiers: "human immunodeficiency virus (HIV)"), and a repeat prescription is the
  // Index's "Issue of".
  const list: Subterm[] = [
    ...subtermsOf(it, 'encounter', 1, KEEP, Infinity),
    ...subtermsOf(it, 'admission', 1, KEEP, Infinity),
    ...subtermsOf(it, 'issue of', 1, KEEP, Infinity),
    ...(said.has(COUNSEL) ? subtermsOf(it, 'counseling', COUNSEL_DEPTH, KEEP, 1) : []),
  ];
  // A subterm is stated with a word of the reason, not only by the neoplasm the note codes.
  const best = bestSubterms(list, said).filter((b) => b.words.some((w) => w >= 0));
  return best.length >= 1 && new Set(best.map((b) => b.code)).size === 1 ? best[0] : undefined;
}
