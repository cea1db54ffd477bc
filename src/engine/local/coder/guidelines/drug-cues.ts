import type { Sentence } from '../sentence-split.js';
import { wordTest } from '../word-tests.js';

// The words that say what happened with a substance (guideline I.C.19.e.5), read by drug-table.ts:
//  - poisoning (5.b): an overdose, a wrong substance, dose or patient, more than prescribed, a drug
//    taken with alcohol or with a drug not prescribed;
//  - adverse effect (5.a): a condition the note attributes to a drug correctly prescribed and taken;
//  - underdosing (5.c): less taken than prescribed, or stopped on the patient's own initiative;
//  - the intent (5.b, 6): accidental unless the note states another; undetermined only when it says so.

/** A cue: its phrases (one to four words) and the words they can start with, so most words are passed by one lookup. */
export interface Cue {
  re: RegExp;
  first: ReadonlySet<string>;
  /** the most words a phrase of it holds */
  max: number;
}
const cue = (re: RegExp, first: string, max = 4): Cue => ({ re, first: new Set(first.split(' ')), max });

const UNDERDOSING =
  /^(underdos\w*|stopped taking|quit taking|ran out of|run out of|running out of|missed doses?|missing doses?|skipped doses?|skipping doses?|skips doses?|forgets? (doses?|to take)|forgot to take|less than prescribed|not taking|noncompliant with|non-compliant with|nonadherent with|non-adherent with|rationing|rationed|rations|noncompliance with|non-compliance with|nonadherence (with|to)|non-adherence (with|to)|poor (adherence|compliance) (with|to))$|^(he|she|patient|pt) (stopped|quit|discontinued)$|^self-discontinued$|^(skipping|skipped|skips) (his|her|their|the)$|^(missed|missing|misses) (his|her|their|several|a few|some)$|^(not|never|hasn't|has not|haven't|have not) (been )?(taking|giving|using)$|^(less|fewer)( \S+)?( \S+)? than (prescribed|directed|ordered|instructed)$|^(half|part) of (the|his|her|their) (prescribed|dose|doses)$|^(only|just) (half|part)$|^(cutting|cut|cuts) (the )?(pills|tablets|doses?) in half$/;
export const UNDER = cue(
  UNDERDOSING,
  "stopped quit ran run running missed missing misses skipped skipping skips forget forgets forgot less fewer not never hasn't has haven't have noncompliance non-compliance nonadherence non-adherence poor noncompliant non-compliant nonadherent non-adherent he she patient pt self-discontinued rationing rationed rations half part only just cutting cut cuts",
  6,
);

const POISONING =
  /^(overdose|overdosed|overdoses|overdosing|od'd|poisoning|poisoned|intoxication|ingestion|ingested|swallowed|handful)$|^od (on|of)$|^(took|taken|taking|take) too (many|much)$|^(took|taken|takes|taking) extra$|^more than (prescribed|directed|recommended)$|^wrong (medication|medicine|drug|dose|pills?|tablets?|patient)$|^(another|other) (patient's|person's)$|^(double|extra) doses?$|^(by mistake|in error)$|^(whole|entire|full) (bottle|pack|packet|box)$|^got into (\S+ )?(\S+ )?(pills|tablets|medications?|medicines?|bottle|cabinet)$|^(accidentally|inadvertently|unintentionally) (drank|swallowed|took|ingested|ate|given|gave|injected)$|^(took|swallowed|ingested)( \S+){0,2} (\d+|several|many|multiple|numerous|all|dozens?|ten|twenty|thirty|forty|fifty)( \S+){0,3} (pills|tablets|capsules)$|^(dosing|dose|medication) (error|mistake)$/;
export const POISON = cue(
  POISONING,
  "overdose overdosed overdoses overdosing od'd od poisoning poisoned intoxication ingestion ingested swallowed handful dosing dose medication took taken taking take takes more wrong another other double extra by in whole entire full got accidentally inadvertently unintentionally",
  7,
);

// A drug given in error ("given another patient's metoprolol in error"): "given" then names the poison, not a treatment.
export const GIVEN_IN_ERROR = cue(
  /^(by mistake|in error|erroneously|mistakenly)$|^wrong (medication|medicine|drug|dose|patient)$|^(another|other) (patient's|person's)$/,
  'by in erroneously mistakenly wrong another other',
  2,
);
// Drinks: a drug taken with one is a poisoning by both (I.C.19.e.5.b), when the note names a drug beside it.
export const DRINKS = /^(alcohol|ethanol|beers?|wine|vodka|whiskey|whisky|liquor|tequila|drinks|shots)$/;
export const ALCOHOL = cue(
  /^(together with|with|and|plus|mixed with|while drinking|after drinking) ((several|a few|some|many|two|three|four|\d+) )?(alcohol|ethanol|beers?|wine|vodka|whiskey|whisky|liquor|tequila|drinks|shots)$/,
  'together with and plus mixed while after',
  5,
);
// A drug taken that no one prescribed (read with a second drug the note names).
export const NOT_PRESCRIBED = cue(
  /^(over-the-counter|otc|nonprescribed|non-prescribed|borrowed)$|^over the counter$|^not prescribed$|^(a friend's|someone else's|another person's)$/,
  'over-the-counter otc nonprescribed non-prescribed borrowed over not a someone another',
  3,
);
// A venomous animal's sting or bite (T63): read only for the Table's venoms.
export const VENOM = cue(
  /^(stung|sting|stings|bitten|bite|bites|envenomation|envenomated)$/,
  'stung sting stings bitten bite bites envenomation envenomated',
  1,
);

// What a note says of a condition a drug caused. "As prescribed" alone names no effect.
export const ADVERSELY = cue(
  /^(adverse (effect|reaction|event)s?|side[- ]effects?|reaction to|allergic reaction to)$/,
  'adverse side side-effect side-effects reaction allergic',
  3,
);
// A cause stated right before the drug ("rash due to amoxicillin", "constipation from the oxycodone").
export const CAUSED = cue(
  /^(due to|secondary to|caused by|from|related to|attributed to|since starting|after starting|after (taking|receiving|getting|being given)|after (the|a|her|his) (first )?dose of)$/,
  'due secondary caused from related attributed since after',
  6,
);
// The drug taken as prescribed: a drug's "toxicity" then is an adverse effect, not a poisoning.
export const PROPERLY = cue(
  /^(as (prescribed|directed|ordered|instructed)|prescribed dose|therapeutic dose|correct dose|properly (taken|administered)|taken correctly|correctly prescribed)$/,
  'as prescribed therapeutic correct properly taken correctly',
  2,
);
// A drug named right before the condition it caused ("her lisinopril caused a cough").
export const CAUSING = /^(caused|causing|causes|gave|giving)$/;
export const TOXICITY = /^(toxicity|toxic)$/;
// "Switched from" a drug is no cause.
export const NOT_CAUSE_BEFORE = /^(switch|switched|switching|changed|change|transitioned|weaned|tapered|converted)$/;
export const INDUCED = /^(.+)-(induced|related|associated)$/;

const SELF_HARM =
  /^(suicide|suicidal|self-harm|self-inflicted|intentional|intentionally|deliberate|deliberately|purposely)$|^self harm$|^on purpose$|^to (kill|hurt|harm) (himself|herself|themselves|myself)$|^(wanted|wanting|trying|tried) to die$|^to end (his|her|their|my) life$/;
export const SELF_HARMED = cue(
  SELF_HARM,
  'suicide suicidal self-harm self-inflicted intentional intentionally deliberate deliberately purposely self on to wanted wanting trying tried',
);
export const ASSAULTED = cue(/^(assault|assaulted|homicidal|maliciously)$/, 'assault assaulted homicidal maliciously');
export const UNDETERMINED_INTENT = cue(
  /^(undetermined|indeterminate)$|^(not|cannot|can't|could not|couldn't) be determined$|^unable to determine$/,
  "undetermined indeterminate not cannot can't could couldn't unable",
);

// Words one of the cues above holds: a sentence without any is not read further (most are not).
const KEYS = new Set(
  "overdose overdosed overdoses overdosing od'd od over-the-counter otc nonprescribed non-prescribed borrowed counter poisoning poisoned intoxication ingestion ingested swallowed handful too extra wrong mistake error another other whole entire full got accidentally inadvertently unintentionally alcohol ethanol beer beers wine vodka whiskey whisky liquor tequila drinks shots adverse side side-effect side-effects reaction due secondary caused from related attributed since after prescribed directed ordered instructed therapeutic correct properly correctly toxicity toxic stung sting stings bitten bite bites envenomation envenomated stopped quit ran run running missed missing misses skipped skipping skips forget forgets forgot less fewer taking giving using noncompliant non-compliant nonadherent non-adherent discontinued self-discontinued rationing rationed rations half part noncompliance non-compliance nonadherence non-adherence adherence compliance pills tablets capsules caused causing causes".split(
    ' ',
  ),
);
const INTENT_WORDS = new Set(
  'assault assaulted homicidal maliciously suicide suicidal self-harm self-inflicted self intentional intentionally deliberate deliberately purposely kill'.split(
    ' ',
  ),
);
export const induced = (w: string) => w.includes('-') && INDUCED.test(w);
const KEYS_AND_INTENT = new Set([...KEYS, ...INTENT_WORDS]);
export const isKey = wordTest((w) => KEYS_AND_INTENT.has(w) || w.startsWith('underdos') || induced(w));

/** The phrase of n words that starts at word i, lower case. */
export function phraseAt(lower: readonly string[], i: number, n: number): string {
  return n === 1 ? lower[i] : lower.slice(i, i + n).join(' ');
}

/** How many words the cue's phrase at word i holds (0 when none starts there). */
export function cueLength(lower: readonly string[], i: number, c: Cue): number {
  for (let n = 1; n <= c.max && i + n <= lower.length; n++) if (c.re.test(phraseAt(lower, i, n))) return n;
  return 0;
}

/** Where the sentence states one of the cue's phrases (the first word of each). */
export function matches(lower: readonly string[], c: Cue): number[] {
  const out: number[] = [];
  for (let i = 0; i < lower.length; i++) {
    if (!c.first.has(lower[i]) && !(c === UNDER && lower[i].startsWith('underdos'))) continue;
    for (let n = 1; n <= c.max && i + n <= lower.length; n++)
      if (c.re.test(phraseAt(lower, i, n))) {
        out.push(i);
        break;
      }
  }
  return out;
}

// Why a patient took less than prescribed (Z91.12-, Z91.13-), and who did (the caregiver's Z91.A-).
const FINANCIAL = /^(afford|affordable|cost|costs|expensive|financial|financially|insurance|money)$/;
const INTENTIONAL_UNDER =
  /^(decided|chose|chooses|refused|refuses|refusing|prefers|preferred|own|stopped|quit|self-discontinued|discontinued|rationing|rationed|rations)$/;
const UNINTENTIONAL_UNDER = /^(forgot|forgets|forgetting|forgetful|confused|misunderstood|misread|memory)$/;
const AGE_DEBILITY = /^(age-related|debility)$/;
const ELDERLY = /^(elderly|frail|frailty)$/;
const CAREGIVER =
  /^(mother|father|mom|dad|parent|parents|caregiver|caregivers|grandmother|grandfather|grandparent|guardian|aide|daughter|son|wife|husband)$/;
const CANNOT_AFFORD = cue(/^(could not|couldn't|cannot|can't|unable to) afford$/, "could couldn't cannot can't unable");

/**
 * The noncompliance code for the reason a patient, or the caregiver who gives the drug, took less
 * than prescribed (I.C.19.e.5.c: Z91.12-, Z91.13-, Z91.A-), when the note gives one; `at` is where
 * the underdosing is stated.
 */
export function noncompliance(s: Sentence, at: number): string | undefined {
  const lower = s.lower;
  const caregiver = lower.slice(Math.max(0, at - 6), at).some((w) => CAREGIVER.test(w));
  if (matches(lower, CANNOT_AFFORD).length || lower.some((w) => FINANCIAL.test(w))) return caregiver ? 'Z91.A20' : 'Z91.120';
  if (lower.some((w) => AGE_DEBILITY.test(w))) return caregiver ? 'Z91.A3' : 'Z91.130';
  if (lower.some((w) => UNINTENTIONAL_UNDER.test(w)))
    return caregiver ? 'Z91.A3' : lower.some((w) => ELDERLY.test(w)) ? 'Z91.130' : 'Z91.138';
  if (lower.some((w) => INTENTIONAL_UNDER.test(w))) return caregiver ? 'Z91.A28' : 'Z91.128';
  return undefined;
}
