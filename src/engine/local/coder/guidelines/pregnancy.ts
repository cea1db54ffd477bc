import { type Candidates, dotted, sentenceAt } from '../candidate.js';
import { wordTest } from '../word-tests.js';

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
  const words = obstetricWords(cands);
  if (words.has('postpartum') && POSTPARTUM_VISIT.test(cands.ctx.text)) postpartumVisit(cands);
  else if (words.has('delivery')) delivery(cands);
  weeksOfGestation(cands);
}

const OBSTETRIC: ReadonlyMap<string, string> = new Map([
  ['postpartum', 'postpartum'],
  ['post-partum', 'postpartum'],
  ['puerperal', 'postpartum'],
  ...['delivery', 'delivered', 'nsvd', 'svd', 'cesarean', 'caesarean', 'c-section'].map((w) => [w, 'delivery'] as [string, string]),
]);

const isObstetric = wordTest((w) => OBSTETRIC.has(w));

/** Which obstetric words ("postpartum", "delivery") the note uses: one test by word id a word. */
function obstetricWords(cands: Candidates): Set<string> {
  const out = new Set<string>();
  for (const s of cands.ctx.sentences)
    for (let i = 0; i < s.ids.length; i++) if (isObstetric(s.ids[i])) out.add(OBSTETRIC.get(s.lower[i])!);
  return out;
}

/** A visit after the delivery: "postpartum visit", "6 weeks postpartum", "five weeks after a vaginal delivery". */
const POSTPARTUM_VISIT =
  /\b(post-?partum|puerperal)\s+(visit|check|check-?up|follow-?up|exam|examination)\b|\b(\d+|one|two|three|four|five|six|seven|eight)[- ](weeks?|days?)\s+(post-?partum|after (?:an? |the |her )?(?:[a-z-]+ ){0,3}(?:delivery|birth))\b/i;
const LACERATION_DEGREE: Record<string, string> = { first: 'O70.0', second: 'O70.1', third: 'O70.20', fourth: 'O70.3' };

/**
 * At a visit after the delivery, O80 (the delivery encounter's code; "not to be used with any
 * other code from chapter 15") is not coded: a routine postpartum follow-up is Z39.2 (I.C.15.o),
 * and a mental disorder of the puerperium is O99.34- first with its F53 code (I.C.15.a.1).
 */
function postpartumVisit(cands: Candidates): void {
  for (const c of cands.finalsIn('O80', 'Z3A'))
    cands.discard(c, `Discarded: ${dotted(c.code)} is for the delivery encounter; this is a visit after the delivery (I.C.15.b.4, o).`);
  const mental = cands.statedIn('F53');
  if (mental.length) cands.assign('O99.345', 'a mental disorder of the puerperium (O99.34-, with its F53 code; I.C.15.a.1)', mental);
  cands.assign('Z39.2', 'routine postpartum follow-up (I.C.15.o)', []);
}

/**
 * The delivery encounter: its perineal laceration by degree (Index: Delivery, complicated by,
 * laceration, perineum, first degree O70.0), O80 only without any other chapter 15 code
 * (I.C.15.b.4), and the outcome of delivery on every delivery record (I.C.15.b.5, Z37).
 */
function delivery(cands: Candidates): void {
  const { sentences } = cands.ctx;
  for (const s of sentences) {
    const at = s.lower.findIndex((w) => w === 'laceration' || w === 'tear');
    if (at < 0 || !s.lower.some((w) => w === 'perineal' || w === 'perineum')) continue;
    const degree = s.lower.slice(Math.max(0, at - 4), at).find((w) => LACERATION_DEGREE[w.replace(/-degree$/, '')]);
    const code = degree && LACERATION_DEGREE[degree.replace(/-degree$/, '')];
    if (code)
      cands.assign(
        code,
        'perineal laceration of the delivery, by its degree (Index: Delivery, complicated by, laceration, perineum)',
        [],
        [{ start: s.starts[at], end: s.ends[at] }],
      );
  }
  const chapter15 = cands.finalsIn('O').filter((c) => c.code !== 'O80');
  if (chapter15.length)
    for (const c of cands.finalsIn('O80')) cands.discard(c, 'Discarded: O80 is not used with any other code from chapter 15 (I.C.15.b.4).');
  const pregnancy = cands.finalsIn('O');
  if (pregnancy.length === 0 || cands.finalsIn('Z37').length) return;
  const text = cands.ctx.text;
  const outcome = /\b(stillborn|stillbirth|fetal demise)\b/i.test(text) ? 'Z37.1' : /\btwins?\b/i.test(text) ? 'Z37.2' : 'Z37.0';
  cands.assign(outcome, 'outcome of delivery, on every delivery record (I.C.15.b.5)', [pregnancy[0]]);
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
      cands.discard(
        z,
        `Discarded: Z79.4, Z79.84 and Z79.85 are not assigned with O24.4- (I.C.15.g); ${dotted(made.code)} states the control.`,
      );
  }
}

const WEEKS = /^(weeks?|wks?)$/;

export function weeksOfGestation(cands: Candidates): void {
  // (With a chapter 15 code, or the supervision of a normal pregnancy, Z34.)
  const pregnancy = cands.finalsIn('O', 'Z34');
  if (pregnancy.length === 0 || cands.finalsIn('Z3A').length) return;
  const weeks = statedWeeks(cands);
  if (weeks === undefined) return;
  const code = weeks < 8 ? 'Z3A.01' : weeks > 42 ? 'Z3A.49' : `Z3A.${weeks}`;
  cands.assign(code, 'weeks of gestation, with a pregnancy code (I.C.15.b.3)', [pregnancy[0]]);
}

/** "28 weeks", "at 34 wks" in the note: the first whole number of weeks, 1 to 45. */
export function statedWeeks(cands: Candidates): number | undefined {
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
