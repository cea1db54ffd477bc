import { type Candidates, dotted } from '../candidate.js';
import { notedBetween } from './tabular-excludes.js';

/**
 * Excludes1 pairs from the ICD-10-CM Tabular List ("NOT CODED HERE": the two are never coded
 * together). The tabular XML is not among the shared files, so the pairs that matter most in
 * practice are curated here: [dropped prefixes, kept prefixes, the note that says so].
 */
export const EXCLUDES1: Array<[string[], string[], string]> = [
  [['R73'], ['E08', 'E09', 'E10', 'E11', 'E13'], 'R73 Excludes1 diabetes mellitus (E08-E13)'],
  [
    ['I10'],
    ['I11', 'I12', 'I13', 'I15', 'I16', 'O10', 'O11', 'O13', 'O16'],
    'I10 Excludes1 hypertensive disease involving the heart or kidneys (I11-I13) and hypertension in pregnancy (O10-O16)',
  ],
  [['R6883'], ['R50', 'A41', 'A40'], 'R68.83 is chills without fever; fever with chills is R50.9'],
  [['Z720'], ['F17'], 'Z72.0 Excludes1 nicotine dependence (F17)'],
  [['Z87891'], ['F172'], 'Z87.891 Excludes1 current nicotine dependence (F17.2)'],
  // The Excludes1 is at G43 and G44 ("headache NOS (R51.9)"); R51's own note is an Excludes2.
  [['R51'], ['G43', 'G44'], 'G43 and G44 Excludes1 headache NOS (R51.9)'],
  [['R42'], ['H81'], 'R42 Excludes1 vertiginous syndromes (H81)'],
  [['R569'], ['G40'], 'R56.9 Excludes1 epilepsy (G40)'],
  [['F32'], ['F33', 'F31', 'F3481'], 'F32 Excludes1 recurrent depressive disorder (F33), bipolar disorder (F31)'],
  [['E119', 'E109'], ['E10', 'E11'], 'E11 Excludes1 type 1 diabetes (E10) and vice versa'],
  [['R1084', 'R109'], ['N23'], 'R10 Excludes1 renal colic (N23)'],
  [['R05'], ['J44', 'J45'], 'cough is part of COPD and asthma'],
  [['E039'], ['E890'], 'E03.9 Excludes1 postprocedural hypothyroidism (E89.0)'],
  [['N390'], ['N30', 'N10', 'N11', 'N12', 'N34'], 'N39.0 Excludes1 urinary infection of a specified site'],
  [['J449'], ['J440', 'J441'], 'J44.9 is COPD without more; the note states more'],
  [['E669'], ['E6601', 'E662', 'E6609'], 'E66.9 is obesity unspecified; the note states its kind'],
  [['G35'], ['I050', 'I342'], '"MS" is read once per note'],
  [['R509'], ['R5081', 'R5082', 'R5083', 'R5084', 'R502'], 'R50.9 is fever unspecified; the note states its kind'],
  [['R53'], ['R54'], 'R53 Excludes1 age-related debility (R54)'],
  [['R634'], ['E40', 'E41', 'E43', 'E44', 'E45', 'E46'], 'R63.4 abnormal weight loss is part of malnutrition (E40-E46)'],
  [['I2510'], ['I252', 'I2511'], 'I25.10 is less specific than the stated atherosclerotic heart disease'],
];

/**
 * Applies the Excludes1 pairs: the dropped code's justification names the note and the kept code.
 * A pair the Tabular calls Excludes2 (and not Excludes1 the other way) is never dropped here, nor
 * a pair one of whose Tabular notes asks for the other ("I16 Code also any identified hypertensive
 * disease (I10-I15)": hypertensive urgency and the essential hypertension, I.C.9.a.10).
 */
export function applyExcludes1(cands: Candidates): void {
  for (const [drop, keep, note] of EXCLUDES1) {
    const kept = cands.finalsIn(...keep);
    if (kept.length === 0) continue;
    for (const d of cands.finalsIn(...drop)) {
      if (
        kept.includes(d) ||
        kept.some(
          (k) => (notedBetween(cands, d, k, 'x2') && !notedBetween(cands, d, k, 'x1')) || notedBetween(cands, d, k, 'ca', 'ua', 'cf'),
        )
      )
        continue;
      cands.discard(d, `Discarded: ${note}; ${dotted(kept[0].code)} is coded.`);
    }
  }
}
