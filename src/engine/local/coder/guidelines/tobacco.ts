import { type Candidates, type Span } from '../candidate.js';
import { assertWords } from '../assertions.js';
import { wordTest } from '../word-tests.js';

const FORMER = /^(former|ex-smoker|ex|quit|stopped|previous|previously|past|quitting)$/;
const CIGARETTE = /^(cigarettes?|packs?|pack-years?|pack-year|pack\/year|pack\/years|cig|cigs)$/;
const CHEW = /^(chew|chews|chewing|smokeless|snuff|dip)$/;
const VAPE = /^(vape|vapes|vaping|e-cigarettes?|cigars?|pipe)$/;
const SMOKE = /^(smoker|smokers|smokes|smoking|smoked|smoke|tobacco|cigarettes?|pack-years?)$/;
const SECONDHAND = /^(secondhand|second-hand|passive)$/;
// Any of these words sends a sentence to the regular expressions above (a Set lookup per word).
const TRIGGERS = new Set(
  'smoker smokers smokes smoking smoked smoke tobacco cigarette cigarettes pack-year pack-years nicotine chew chews chewing smokeless snuff dip vape vapes vaping e-cigarette e-cigarettes cigar cigars pipe'.split(
    ' ',
  ),
);
const DEPENDENCE = /^(dependence|dependent|addiction|addicted)$/;
// Where someone else's smoke reaches the patient: "the father smokes inside the house".
const HOUSEHOLD = /^(home|house|household|inside|indoors|around|car|apartment)$/;
// Advice about smoking ("counsel on smoking outside the home") states no one's tobacco use.
const ADVICE = /^(counsel|counseled|counselled|counseling|counselling|educate|educated|education|advise|advised|discuss|discussed)$/;
const USE = /^(use|uses|user|users|using)$/;
const SMOKER = /^(smoker|smokes|smoking)$/;
const isTrigger = wordTest((w) => TRIGGERS.has(w));

/**
 * Tobacco (I.C.5.b.10, Z72.0 Excludes1 F17): smoking is nicotine dependence (F17.2x, cigarettes
 * when stated); chewing tobacco F17.220; other products F17.290; "tobacco use" without more is
 * Z72.0; a former smoker is personal history Z87.891; exposure to others' smoke Z77.22.
 */
export function applyTobacco(cands: Candidates): void {
  let status: { code: string; rule: string; spans: Span[]; rank: number } | undefined;
  const propose = (code: string, rule: string, spans: Span[], rank: number) => {
    if (!status || rank > status.rank) status = { code, rule, spans, rank };
  };
  for (const s of cands.ctx.sentences) {
    const lower = s.lower;
    if (!s.ids.some(isTrigger)) continue;
    // "The urine dip shows nitrites": "dip" alone, with no other tobacco word, is a test strip.
    if (lower.every((w) => w === 'dip' || !TRIGGERS.has(w))) continue;
    if (lower.some((w) => /^(nonsmoker|non-smoker|never-smoker|nonsmoking|non-smoking)$/.test(w))) continue;
    const asserted = assertWords(s.words);
    const spanOf = (i: number): Span => ({ start: s.starts[i], end: s.ends[i] });
    const hits = lower
      .map((w, i) => i)
      .filter((i) => SMOKE.test(lower[i]) || CHEW.test(lower[i]) || VAPE.test(lower[i]) || lower[i] === 'nicotine');
    if (hits.every((i) => lower.slice(Math.max(0, i - 3), i).some((w) => ADVICE.test(w)))) continue;
    // A relative who smokes where the patient lives is the patient's exposure (Index: Exposure, tobacco smoke, Z77.22).
    const theirs = hits.filter((i) => asserted[i] === 'family' && SMOKE.test(lower[i]));
    if (theirs.length && lower.some((w) => HOUSEHOLD.test(w))) {
      propose('Z77.22', 'exposure to environmental tobacco smoke (Z77.22): a member of the household smokes', theirs.map(spanOf), 1);
      continue;
    }
    const present = hits.filter((i) => asserted[i] === 'present' || asserted[i] === 'historical');
    if (present.length === 0) continue;
    const spans = present.map(spanOf);
    const first = present[0];
    if (lower.some((w) => SECONDHAND.test(w)) && lower.includes('smoke')) {
      propose('Z77.22', 'exposure to environmental tobacco smoke (Z77.22)', spans, 1);
      continue;
    }
    const former = lower.some((w, i) => FORMER.test(w) && Math.abs(i - first) <= 4) || asserted[first] === 'historical';
    if (former) {
      propose('Z87.891', 'former tobacco use is personal history of nicotine dependence (Z87.891)', spans, 2);
      continue;
    }
    // The Index: "Use, tobacco Z72.0; with dependence, see Dependence, drug, nicotine"; "Smoker,
    // see Dependence". Use the note calls no dependence (denied, or a product's "use" and no
    // smoker or dependence word) is Z72.0.
    const dependence = lower.map((w, i) => i).filter((i) => DEPENDENCE.test(lower[i]));
    const denied = dependence.length > 0 && dependence.every((i) => asserted[i] === 'negated');
    const useOnly = dependence.length === 0 && lower.some((w) => USE.test(w)) && !lower.some((w) => SMOKER.test(w));
    if (denied || useOnly) propose('Z72.0', 'tobacco use without dependence (Index: Use, tobacco, Z72.0)', spans, denied ? 6 : 1);
    else if (lower.some((w) => CHEW.test(w)))
      propose('F17.220', 'chewing tobacco is nicotine dependence, chewing tobacco (F17.220)', spans, 4);
    else if (lower.some((w) => CIGARETTE.test(w)))
      propose('F17.210', 'a cigarette smoker is coded as nicotine dependence, cigarettes (F17.210)', spans, 5);
    else if (lower.some((w) => VAPE.test(w)))
      propose('F17.290', 'other tobacco products are nicotine dependence, other tobacco product (F17.290)', spans, 4);
    else if (lower.some((w) => SMOKER.test(w)) || dependence.length > 0)
      propose('F17.200', 'a smoker is coded as nicotine dependence (Index: Smoker, see Dependence, drug, nicotine; F17.200)', spans, 3);
  }
  const chosen = status as { code: string; rule: string; spans: Span[] } | undefined;
  const made = chosen ? cands.assign(chosen.code, chosen.rule, [], chosen.spans) : undefined;
  for (const c of cands.finalsIn('F17', 'Z720', 'Z87891', 'Z7722')) {
    if (c === made) continue;
    cands.discard(
      c,
      made
        ? `Discarded: the tobacco status of this note is coded ${chosen!.code} (Z72.0 Excludes1 F17; Z87.891 Excludes1 F17.2).`
        : 'Discarded: the note does not state current or past tobacco use.',
    );
  }
}
