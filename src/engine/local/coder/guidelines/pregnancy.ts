import { type Candidates, dotted, sentenceAt } from '../candidate.js';

const DIABETES = ['E08', 'E09', 'E10', 'E11', 'E13'];
/** O24.41- by what controls it (Index: Diabetes, gestational, diet / insulin / oral drug controlled). */
const CONTROL: Array<[RegExp, string]> = [
  [/^(insulin|glargine|detemir|lispro|aspart|nph)$/, '4'],
  [/^(metformin|glyburide|glibenclamide|oral)$/, '5'],
  [/^(diet|dietary|diet-controlled|nutrition)$/, '0'],
];

/**
 * Pregnancy (I.C.15): gestational diabetes is O24.4- (I.C.15.g), never a diabetes of chapter 4,
 * by what controls it; and with any chapter 15 code, the weeks of gestation the note states are
 * coded from Z3A (I.C.15.b.3).
 */
export function applyPregnancy(cands: Candidates): void {
  gestationalDiabetes(cands);
  weeksOfGestation(cands);
}

function gestationalDiabetes(cands: Candidates): void {
  for (const c of cands.statedIn(...DIABETES)) {
    const s = sentenceAt(cands.ctx, c.spans[0].start, c.spans[0].end);
    if (!s || !s.lower.includes('gestational')) continue;
    const control = CONTROL.find(([re]) => s.lower.some((w) => re.test(w)))?.[1] ?? '9';
    const made = cands.assign(`O24.41${control}`, 'gestational diabetes in pregnancy is coded O24.4- (I.C.15.g)', [c]);
    if (!made) continue;
    cands.discard(c, `Discarded: gestational diabetes is ${dotted(made.code)}, not a diabetes of chapter 4 (I.C.15.g).`);
    for (const z of cands.finalsIn('Z794', 'Z7984', 'Z7985'))
      cands.discard(z, `Discarded: Z79.4, Z79.84 and Z79.85 are not assigned with O24.4- (I.C.15.g); ${dotted(made.code)} states the control.`);
  }
}

const WEEKS = /^(weeks?|wks?)$/;

function weeksOfGestation(cands: Candidates): void {
  const pregnancy = cands.finalsIn('O');
  if (pregnancy.length === 0 || cands.finalsIn('Z3A').length) return;
  const weeks = statedWeeks(cands);
  if (weeks === undefined) return;
  const code = weeks < 8 ? 'Z3A.01' : weeks > 42 ? 'Z3A.49' : `Z3A.${weeks}`;
  cands.assign(code, 'weeks of gestation, with a pregnancy code (I.C.15.b.3)', [pregnancy[0]]);
}

/** "28 weeks", "at 34 wks" in the note: the first whole number of weeks, 1 to 45. */
function statedWeeks(cands: Candidates): number | undefined {
  for (const s of cands.ctx.sentences) {
    for (let i = 1; i < s.lower.length; i++) {
      if (!WEEKS.test(s.lower[i]) || !/^\d{1,2}$/.test(s.lower[i - 1])) continue;
      // "6 weeks after delivery", "2 weeks ago": a time since, not the gestation.
      if (/^(ago|after|since|postpartum|post|later)$/.test(s.lower[i + 1] ?? '')) continue;
      const n = Number(s.lower[i - 1]);
      if (n >= 1 && n <= 45) return n;
    }
  }
  return undefined;
}
