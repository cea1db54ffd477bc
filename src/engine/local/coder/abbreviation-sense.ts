import type { Candidates } from './candidate.js';

/**
 * An abbreviation that names two conditions ("MS": multiple sclerosis or mitral stenosis; "MI":
 * myocardial infarction or mitral insufficiency) means the one the note speaks of. `own` and
 * `other` are the words of each sense's subject; the other sense is read when the note speaks of
 * its subject and not of the code's own. When it speaks of neither or both, `unclear` says whether
 * the code stays (the sense nearly always meant) or is not coded.
 */
interface AbbreviationSense {
  said: string;
  codes: RegExp;
  name: string;
  own: RegExp;
  other: RegExp;
  otherCode: string;
  otherName: string;
  subject: string;
  unclear: 'keep' | 'discard';
  /** words one of which must stand just before the abbreviation for the other sense ("moderate MI") */
  before?: RegExp;
}

// The nervous system's words, and the heart valves'.
const NEURO =
  /\b(sclerosis|demyelinat\w*|relapsing|remitting|optic neuritis|interferon|natalizumab|ocrelizumab|fingolimod|glatiramer|oligoclonal|edss|white matter lesions?|periventricular)\b/i;
const CARDIAC = /\b(mitral|valve|valvular|murmur|echocardiogra\w*|rheumatic|commissurotomy|valvuloplasty|atrial fibrillation)\b/i;
// A valve's lesions as an echocardiogram reports them, and the coronary words of an infarction.
const VALVE =
  /\b(mitral|valve|valvular|regurgitation|regurgitant|insufficiency|stenosis|prolapse|leaflets?|annulus|TR|AR|AI|TI|MVP|vena contracta)\b/;
const CORONARY =
  /\b(infarct\w*|troponins?|STEMI|NSTEMI|coronary|CAD|stents?|stented|PCI|CABG|angina|cath|catheterization|ST[- ]elevation|ischemi\w*|heart attack)\b/i;

const SENSES: readonly AbbreviationSense[] = [
  {
    said: 'MS',
    codes: /^G35/,
    name: 'multiple sclerosis',
    own: NEURO,
    other: CARDIAC,
    otherCode: 'I05.0',
    otherName: 'mitral stenosis',
    subject: 'the heart valves',
    unclear: 'discard',
  },
  {
    said: 'MI',
    codes: /^I2[125]/,
    name: 'myocardial infarction',
    own: CORONARY,
    other: VALVE,
    otherCode: 'I34.0',
    otherName: 'mitral insufficiency',
    subject: 'the heart valves, as an echocardiogram reports them',
    unclear: 'keep',
    // A valve's leak is graded ("trace", "moderate", "2+ MI"); an "old MI" is an infarction.
    before: /^(trace|trivial|mild|moderate|severe|significant|mild-moderate|moderate-severe|mild-to-moderate|moderate-to-severe|[1-4]\+)$/i,
  },
];

/** What "MS" stands for in this note: 'G35' (multiple sclerosis), 'I05.0' (mitral stenosis) or undefined. */
export function msSense(text: string): 'G35' | 'I05.0' | undefined {
  const sense = senseIn(SENSES[0], text);
  return sense === 'own' ? 'G35' : sense === 'other' ? 'I05.0' : undefined;
}

function senseIn(a: AbbreviationSense, text: string): 'own' | 'other' | undefined {
  const own = a.own.test(text);
  const other = a.other.test(text);
  return own === other ? undefined : own ? 'own' : 'other';
}

/** Each code read from an ambiguous abbreviation, kept, replaced by its other sense, or discarded. */
export function readAbbreviationSenses(cands: Candidates): void {
  const { text } = cands.ctx;
  for (const a of SENSES) {
    for (const c of cands.finals()) {
      if (!a.codes.test(c.code) || c.spans.length === 0) continue;
      if (text.slice(c.spans[0].start, c.spans[0].end) !== a.said) continue;
      let sense = senseIn(a, text);
      if (sense === 'other' && a.before && !a.before.test(wordBefore(text, c.spans[0].start))) sense = 'own';
      if (sense === 'own' || (sense === undefined && a.unclear === 'keep')) continue;
      if (sense === 'other' && cands.assign(a.otherCode, `"${a.said}" in a note about ${a.subject} is ${a.otherName}`, [c])) {
        cands.discard(c, `Discarded: word sense. "${a.said}" here is ${a.otherName} (the note speaks of ${a.subject}), not ${a.name}.`);
      } else if (sense === undefined) {
        cands.discard(
          c,
          `Discarded: word sense. "${a.said}" is ambiguous here (${a.name}, ${a.otherName}) and the note does not say which.`,
        );
      }
    }
  }
}

/** The word just before offset `at` in the text. */
function wordBefore(text: string, at: number): string {
  return /(\S+)\s*$/.exec(text.slice(Math.max(0, at - 40), at))?.[1] ?? '';
}
