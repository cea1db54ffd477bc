import type { CodeTable } from '../../../terminology/code-table.js';
import { assertWords } from './assertions.js';
import type { Mention } from './mention.js';
import type { Sentence } from './sentence-split.js';

// Heads after a condition word that make it name something else: "pain medication", "diabetes
// education", "HIV test". A title word alone must not make a code.
const NOT_A_CONDITION = new Set(
  (
    'medication medications medicine clinic clinics education educator screening screen vaccine vaccines vaccination ' +
    'shot shots booster immunization immunisation ' +
    'test tests testing panel team service services specialist center centre program programme protocol unit ' +
    'ward nurse consult consultation society association foundation awareness prevention prophylaxis kit ' +
    // Advice and prophylaxis about a disease: "HIV counseling" (Z71.7), "HIV PrEP" (Z29.81), not the disease.
    'counseling counselling prep pep ' +
    // A measure or a rating named after the condition: "stroke volume", "stroke risk", "pain score".
    'volume risk scale score index rate workup work-up'
  ).split(' '),
);
const URINARY = /^(urinat|urine|micturi|void|pee)/;
const HOSPITAL_DISCHARGE_NEXT = new Set([
  'home',
  'summary',
  'diagnosis',
  'diagnoses',
  'instructions',
  'medication',
  'medications',
  'planning',
  'plan',
  'date',
  'to',
  'letter',
  'report',
  'criteria',
]);
const CARE_PLACE = /^(hospital|icu|ward|unit|rehab|rehabilitation|er|ed|emergency|service|department)$/;
const HOSPITAL_DISCHARGE_PREV = new Set([
  'hospital',
  'at',
  'on',
  'upon',
  'after',
  'before',
  'until',
  'prior',
  'since',
  'following',
  'for',
  'was',
  'were',
  'be',
  'is',
]);
const NOT_MOOD_DEPRESSION = new Set([
  'st',
  'st-segment',
  'segment',
  'respiratory',
  'marrow',
  'myocardial',
  'cns',
  'skull',
  'ventilatory',
  'pr',
  'pr-segment',
]);
const BURN_VERB_BEFORE = new Set(['it', 'that', 'this', 'which', 'still', 'also', 'really', 'kind', 'sort']);
const BURN_VERB_AFTER = new Set(['when', 'whenever', 'with', 'during', 'if', 'after', 'while', 'every']);
const TOBACCO_CONTEXT = /^(tobacco|chew|chews|chewing|chewed|snuff|smokeless|snus|nicotine|pouch|pouches|copenhagen|skoal|grizzly)$/;
const BONE_CALLUS_CONTEXT =
  /^(fractures?|fractured|x-?rays?|xrays?|radiographs?|radiographic\w*|bone|bony|bridging|periosteal|union|nonunion|malunion|cortical)$/;
const PLEURAL_CONTEXT = /^(pleural|pleura|chest|lung|lungs|thorax|thoracic|thoracentesis|hemithorax|costophrenic|parapneumonic|pleuritic)$/;
/** Codes of a reaction (symptoms, urticaria, drug eruption, anaphylaxis) that an allergy statement names. */
const REACTION_CODE = /^(R|L50|L27|T78|T88\.[67])/;
/** Signs found at a site on examination: the word before them names the site. */
const SIGN_NOUN = new Set(['tenderness', 'tender', 'pain', 'swelling', 'fullness', 'guarding', 'rigidity', 'mass', 'bruit', 'crepitus']);
/** Tissues a site word before them locates: the phrase names the tissue. */
const TISSUE = new Set(['skin', 'mucosa']);
/** Procedure nouns by their Greek and Latin endings (lithotripsy, colectomy, angioplasty, thoracentesis). */
const PROCEDURE = /^[a-z]+(tripsy|ectomy|otomy|ostomy|plasty|scopy|pexy|rrhaphy|centesis|desis|graphy)$/;
const FITS_HOW = /^(well|poorly|properly|comfortably|snugly|correctly|appropriately|loosely|tightly|fine|securely|better|badly)$/;
const COLD_NOT_ILLNESS =
  /^(exposur|intoleran|extremit|hand|feet|foot|finger|toe|sweat|agglutinin|water|compress|pack|skin|limb|ischemi|clammy|temperatur|weather|environment|injur|urticari)/;

/**
 * Why a mention does not mean its code in this sentence (word sense), or undefined when it may.
 * Looks at the words on either side of the mention only: constant work per mention.
 */
export function senseProblem(table: CodeTable, m: Mention, lower: readonly string[]): string | undefined {
  const code = table.codeAt(m.code);
  // The mention's words are read in place (spanHas, spanSome); a copy is made only for a message.
  const prev = lower[m.start - 1] ?? '';
  const next = lower[m.end + 1] ?? '';
  const first = lower[m.start];
  const one = Math.min(m.end + 1, lower.length) - m.start === 1; // the mention is one word

  // Burns are injuries; "burning" is a sensation: on urination it is dysuria (R30.0), and so is
  // "it burns when she pees" (the verb, not the injury).
  if (/^T(2[0-9]|3[0-2])/.test(code)) {
    const urinary =
      lower.slice(m.end + 1, m.end + 6).some((w) => URINARY.test(w)) ||
      lower.slice(Math.max(0, m.start - 4), m.start).some((w) => URINARY.test(w));
    if (urinary) return 'Burning on urination is dysuria (R30.0), not a burn injury.';
    const injuryWord = spanSome(lower, m, INJURY_WORD);
    const verb = BURN_VERB_BEFORE.has(prev) || BURN_VERB_AFTER.has(next);
    if (!injuryWord || verb)
      return `"${[prev, ...spanOf(lower, m), next].join(' ').trim()}" describes a burning sensation, not a burn injury.`;
  }
  // R29.6 is repeated falls: one fall ("after a fall", "fell") is an accident, coded by its injury.
  if (code === 'R296' && !/\b(repeated|recurrent|frequent|multiple|several|many|recurring)\b|\bfalls\b/.test(lower.join(' '))) {
    return `"${spanOf(lower, m).join(' ')}" is one fall, not repeated falls (R29.6): the injury it caused is coded.`;
  }
  // "Accessory muscle use": the work of breathing seen on examination, not a congenital extra muscle (Q79.8).
  if (code.startsWith('Q') && spanHas(lower, m, 'accessory') && (/^(use|usage)$/.test(next) || /^(using|uses|of)$/.test(prev))) {
    return `"${[prev, ...spanOf(lower, m), next].join(' ').trim()}" is the use of accessory muscles of breathing, a sign, not a congenital malformation.`;
  }
  // "Well-healed neck scar": the mark of an operation seen on examination, not a scar condition (L90.5).
  if (code === 'L905' && lower.slice(Math.max(0, m.start - 3), m.start).some((w) => w === 'healed' || w === 'well-healed')) {
    return 'A healed surgical scar seen on examination is a finding of the past operation, not a scar condition to code.';
  }
  // "The urine dip shows nitrites": a dip is chewing tobacco only where tobacco is spoken of.
  if (spanHas(lower, m, 'dip') && !lower.some((w) => TOBACCO_CONTEXT.test(w))) {
    return '"Dip" here is not chewing tobacco: the sentence says nothing of tobacco (a urine dip is a test strip).';
  }
  // "Bridging callus", "callus on the X-ray": new bone bridging a healing fracture, not a skin callus (L84).
  if (code === 'L84' && lower.some((w) => BONE_CALLUS_CONTEXT.test(w))) {
    return `"${spanOf(lower, m).join(' ')}" here is the new bone of a healing fracture, not a callus of the skin (L84).`;
  }
  // "Effusion" alone names no site: a knee effusion is not a pleural effusion (J90, J91).
  if (/^J9[01]/.test(code) && !spanHas(lower, m, 'pleural') && !lower.some((w) => PLEURAL_CONTEXT.test(w))) {
    return `"${spanOf(lower, m).join(' ')}" names no pleural site: an effusion of a joint or elsewhere is not a pleural effusion.`;
  }
  // "ALLERGIES: sulfa drugs give the patient a rash", "allergic to penicillin (hives)": the
  // reaction belongs to the allergy history, not to today's findings.
  if (REACTION_CODE.test(code) && !spanSome(lower, m, ALLERG) && allergyStatement(lower, m)) {
    return `"${spanOf(lower, m).join(' ')}" is a reaction named in the allergy history, not a current condition.`;
  }
  // "Cold" the illness (J00) versus cold hands, cold intolerance or exposure to cold.
  if (
    code === 'J00' &&
    spanHas(lower, m, 'cold') &&
    !spanHas(lower, m, 'common') &&
    !spanHas(lower, m, 'head') &&
    !spanHas(lower, m, 'nasopharyngitis')
  ) {
    if (COLD_NOT_ILLNESS.test(next) || prev === 'to' || prev === 'the' || /^(feel|felt|feels|is|are|was|were)$/.test(prev)) {
      return `"${[prev, 'cold', next].join(' ').trim()}" speaks of temperature or cold exposure, not the common cold.`;
    }
  }
  // Hospital discharge versus a discharge from a body site.
  if (spanSome(lower, m, DISCHARGE_WORD)) {
    const fromCare = next === 'from' && (CARE_PLACE.test(lower[m.end + 2] ?? '') || CARE_PLACE.test(lower[m.end + 3] ?? ''));
    if (
      spanHas(lower, m, 'discharged') ||
      fromCare ||
      HOSPITAL_DISCHARGE_NEXT.has(next) ||
      (first.startsWith('discharge') && HOSPITAL_DISCHARGE_PREV.has(prev))
    ) {
      return 'The note speaks of discharge from hospital, not a discharge from a body site.';
    }
  }
  // ST-segment depression is an ECG finding (R94.31), not a depressive disorder.
  if (
    /^F3[23]/.test(code) &&
    first === 'depression' &&
    (NOT_MOOD_DEPRESSION.has(prev) || (prev === 'segment' && lower[m.start - 2] === 'st'))
  ) {
    return prev === 'st' || prev === 'segment' || prev === 'st-segment'
      ? 'ST-segment depression is an electrocardiogram finding (R94.31), not a depressive disorder.'
      : `"${prev} depression" is not a depressive disorder.`;
  }
  // "CVA tenderness", "RUQ pain": an abbreviation before a sign names where the sign is (the
  // costovertebral angle, the right upper quadrant), not a disease; the sign is what is stated.
  if (m.start === m.end && SIGN_NOUN.has(next) && !table.descriptionAt(m.code).toLowerCase().includes(first)) {
    return `"${first.toUpperCase()} ${next}" names the site of the ${next}, not the condition the abbreviation also stands for.`;
  }
  // "SpO2 98% on RA", "saturating well on RA": room air, not rheumatoid arthritis.
  if (one && first === 'ra' && (prev === 'on' || lower.slice(Math.max(0, m.start - 3), m.start).includes('%'))) {
    return '"RA" after an oxygen reading ("on RA") is room air, not rheumatoid arthritis.';
  }
  const vaccine = vaccineListed(lower, m);
  if (vaccine) return vaccine;
  // "Counselled on weight loss": the goal of the visit's advice, not a symptom (R63.4).
  if (code === 'R634' && lower.slice(Math.max(0, m.start - 3), m.start).some((w) => WEIGHT_GOAL.test(w))) {
    return `"${spanOf(lower, m).join(' ')}" here is the goal of the advice given, not an abnormal loss of weight (R63.4).`;
  }
  // "Total bilirubin 0.9": a laboratory result in its reference range names no disorder.
  const normal = normalResult(lower, m, next);
  if (normal) return normal;
  // "The prosthesis fits well": the verb, not fits (convulsions, R56).
  if (one && /^fits?$/.test(first) && FITS_HOW.test(next)) {
    return `"${first} ${next}" says how something fits, not a fit (convulsion).`;
  }
  // "nose skin", "breast skin": a site before the tissue names the tissue there (skin of nose,
  // C44.3-/D22.3-/D23.3-), not the organ ("neoplasm of nose" D36.7 stops mid-phrase).
  if (TISSUE.has(next) && !table.descriptionAt(m.code).toLowerCase().includes(next)) {
    const last = spanOf(lower, m).at(-1);
    return `"${last} ${next}" is the ${next} of the ${last}, not the ${last} itself.`;
  }
  // "shock wave lithotripsy": one word before a noun and a procedure names the procedure's means, not a condition.
  const after = lower[m.end + 2] ?? '';
  if (m.start === m.end && /^[a-z]{3,}$/.test(next) && PROCEDURE.test(after)) {
    return `"${[first, next, after].join(' ')}" names a procedure, not the condition.`;
  }
  // "pain medication", "diabetes education": the condition word names something else.
  if (m.end - m.start <= 1 && NOT_A_CONDITION.has(next)) {
    return `"${spanOf(lower, m).join(' ')} ${next}" names a ${next}, not the condition.`;
  }
  return undefined;
}

const INJURY_WORD = /^(burn|burns|burned|burnt|scald|scalds|scalded)$/;
const ALLERG = /^allerg/;
const DISCHARGE_WORD = /^(discharge|discharged|discharges)$/;

/** The mention's words (a copy, for a message). */
function spanOf(lower: readonly string[], m: Mention): string[] {
  return lower.slice(m.start, m.end + 1);
}

/** Whether the mention's words hold `w`, read in place. */
function spanHas(lower: readonly string[], m: Mention, w: string): boolean {
  const to = Math.min(m.end + 1, lower.length);
  for (let i = m.start; i < to; i++) if (lower[i] === w) return true;
  return false;
}

/** Whether one of the mention's words matches `re`, read in place. */
function spanSome(lower: readonly string[], m: Mention, re: RegExp): boolean {
  const to = Math.min(m.end + 1, lower.length);
  for (let i = m.start; i < to; i++) if (re.test(lower[i])) return true;
  return false;
}

const VACCINE_WORD = new Set(
  'vaccine vaccines vaccination vaccinations immunization immunizations immunisation immunisations shot shots booster boosters'.split(' '),
);
const LIST_WORD = new Set([',', 'and', 'or', '&', '/']);
const WEIGHT_GOAL = /^(counsel|discuss|advis|encourag|goal|recommend|intentional|plan|target|motivat|educat)/;
/** Upper reference limits (mg/dL) of the results a disorder's name is read from: total bilirubin 1.2. */
const UPPER_LIMIT: ReadonlyMap<string, number> = new Map([['bilirubin', 1.2]]);
const LAB_WORD = new Set(['total', 'serum', 'plasma', 'blood', 'level']);

/** "Total bilirubin 0.9 mg/dL": the test's name and a value within its reference range. */
function normalResult(lower: readonly string[], m: Mention, next: string): string | undefined {
  if (!/^\d+(\.\d+)?$/.test(next)) return undefined;
  const span = spanOf(lower, m);
  const analyte = span.find((w) => UPPER_LIMIT.has(w));
  if (!analyte || !span.every((w) => w === analyte || LAB_WORD.has(w))) return undefined;
  if (Number(next) > UPPER_LIMIT.get(analyte)!) return undefined;
  return `"${span.join(' ')} ${next}" is a laboratory result within its reference range, not a condition.`;
}

/**
 * A disease named as one of a list of vaccines given ("hepatitis A and varicella vaccines",
 * "immunizations: DTaP, polio, hepatitis B"): the vaccine, not the disease (Z23 codes the visit).
 */
function vaccineListed(lower: readonly string[], m: Mention): string | undefined {
  // After: a list joined by "and"/"or" ends in the vaccine word.
  let joined = false;
  for (let i = m.end + 1; i < Math.min(lower.length, m.end + 6); i++) {
    if (VACCINE_WORD.has(lower[i])) {
      if (joined || i === m.end + 1) return `"${lower.slice(m.start, i + 1).join(' ')}" names vaccines given, not the disease.`;
      break;
    }
    if (LIST_WORD.has(lower[i]) && lower[i] !== ',') joined = true;
  }
  // Before: the vaccine word heads a list ("vaccines given: MMR, varicella") that reaches the mention.
  for (let i = m.start - 1; i >= Math.max(0, m.start - 8); i--) {
    if (lower[i] === ':' && lower.slice(Math.max(0, i - 3), i).some((w) => VACCINE_WORD.has(w))) {
      const between = lower.slice(i + 1, m.start);
      if (between.length === 0 || LIST_WORD.has(between[between.length - 1]))
        return `"${lower.slice(m.start, m.end + 1).join(' ')}" is one of the vaccines listed, not the disease.`;
      return undefined;
    }
    if (lower[i] === '.' || lower[i] === ';') return undefined;
  }
  return undefined;
}

/**
 * An allergy statement outside the mention: "allergies" (the heading, "allergies include") or
 * "allergic to" / "allergy to". A current "allergic reaction with hives" is not one.
 */
function allergyStatement(lower: readonly string[], m: Mention): boolean {
  return lower.some(
    (w, i) => (i < m.start || i > m.end) && (w === 'allergies' || ((w === 'allergic' || w === 'allergy') && lower[i + 1] === 'to')),
  );
}

const CAUGHT = new Set(['has', 'had', 'have', 'having', 'caught', 'with', 'got', 'developed', 'fighting', 'recent']);

/**
 * "has a cold", "caught a cold", "head cold": the common cold (J00), not cold temperature. Returns
 * the offsets of each such "cold" that is asserted.
 */
export function coldIllness(sentences: readonly Sentence[]): Array<{ start: number; end: number }> {
  const out: Array<{ start: number; end: number }> = [];
  for (const s of sentences) {
    const lower = s.lower;
    const asserted = lower.includes('cold') ? assertWords(s.words) : undefined;
    for (let i = 1; i < lower.length; i++) {
      if (lower[i] !== 'cold' || asserted?.[i] !== 'present') continue;
      const prev = lower[i - 1];
      const illness = prev === 'head' || prev === 'chest' || prev === 'common' || (prev === 'a' && CAUGHT.has(lower[i - 2] ?? ''));
      if (illness && !COLD_NOT_ILLNESS.test(lower[i + 1] ?? '')) out.push({ start: s.starts[i], end: s.ends[i] });
    }
  }
  return out;
}
