import type { Section } from './classify.js';
import { diagnosisCue } from './cues/index.js';
import type { Speaker } from './transcript.js';
import { thirdPerson, type Pronouns } from './third-person.js';

/**
 * Turns what a clinician said into how a scribe writes it, before the third-person rewrite:
 * an impression loses its "I think" and keeps its qualifier ("most likely", "probably"); an
 * order loses "what we're gonna do is" / "let's" / "I'll" and reads as an order ("Get an MRI",
 * "Prescribe naproxen"); instructions to the patient read "the patient was advised to".
 * Each pattern is anchored and made of fixed words, so matching stays linear.
 */
const LEAD = '^(?:(?:so|and|now|also|then|okay|alright|well|but|first|second|next|finally),? )*';

const ASSESS_PREFIX = new RegExp(
  `${LEAD}(?:i think|i believe|i suspect|i feel like|my (?:impression|diagnosis|assessment) is)(?: that)? (?:(?:this|it|that|you|what you have|what's going on) (?:is|are|has|have|'s|could be|might be) )?`,
  'i',
);
// "This looks like X", said after the examination, is how clinicians state the diagnosis they
// treat: the note writes "X". "Sounds like" and "seems like" stay hedged ("likely X").
const LOOKS_LIKE = new RegExp(`${LEAD}(?:(?:this|it|that|everything) )?looks like `, 'i');
const SOUNDS_LIKE = new RegExp(`${LEAD}(?:(?:this|it|that|everything) )?(?:sounds|seems|looks) (?:like|consistent with) `, 'i');
const IS_A = new RegExp(`${LEAD}(?:this|it|that)(?: is|'s) (?=(?:a|an|most likely|likely|probably|consistent with) )`, 'i');
// "this is major depressive disorder": the diagnosis itself, without "this is".
const THIS_IS = new RegExp(`${LEAD}(?:this|it|that)(?: is|'s) `, 'i');

const PLAN_PREFIXES: [RegExp, string][] = [
  [
    new RegExp(
      `${LEAD}what (?:we're|we are|i'm|i am) (?:going to|gonna) do (?:is|here is)?,? (?:(?:we're|we are|i'm|i am) (?:going to|gonna) |we'll |i'll |we will |i will )?`,
      'i',
    ),
    '',
  ],
  [new RegExp(`${LEAD}(?:let's|let us) (?:go ahead and )?`, 'i'), ''],
  [
    new RegExp(
      `${LEAD}(?:i'll|i will|we'll|we will|(?:i'm|i am|we're|we are) (?:also |just )?(?:going to|gonna)|i'd like to|i would like to|i want to|we need to) (?:also |just |then )?(?:go ahead and )?`,
      'i',
    ),
    '',
  ],
  [
    new RegExp(
      `${LEAD}(?:i'm|i am|we're|we are) (?:also |just )?(referring|ordering|prescribing|starting|sending|adding|increasing|decreasing|switching|stopping|scheduling|checking|changing|giving) `,
      'i',
    ),
    '$1 ',
  ],
  [
    new RegExp(
      `${LEAD}(?:i (?:also |really )?want you to|i'd (?:also )?like you to|i would (?:also )?like you to|i (?:also )?need you to|you should|you need to|you'll need to|please|make sure to|make sure you) `,
      'i',
    ),
    '@advised ',
  ],
  [new RegExp(`${LEAD}(?:go to the (?:er|emergency room|emergency department)|call 911)`, 'i'), '@advised $&'],
];

const PLAN_VERBS: [RegExp, string][] = [
  [/^(refer|order|send|add|switch|stop|check|start|giv|chang|increas|decreas|prescrib|schedul)(?:r?ing) /i, '@ing$1 '],
  [/^send in /i, 'prescribe '],
  [/^call in /i, 'prescribe '],
  [/^see (?:you|the patient|her|him|them) back /i, 'follow up '],
  [/^come back /i, 'return '],
  [/^get (?:you|her|him|them) started on /i, 'start '],
  [/^get (?:you|her|him|them) (?:set up )?(?:with|for) /i, 'arrange '],
  [/^have (?:you|her|him|them) /i, '@advised '],
];

const EXAM_PREFIX =
  /^(?:(?:so|and|now|okay),? )*(?:listening to|on|looking at|examining) (?:your|the) (heart|lungs?|chest|abdomen|belly|skin|throat|ears?|eyes?|[a-z]+ (?:knee|shoulder|ankle|wrist|hip|elbow|foot|hand)|knee|shoulder|back|neck)(?: exam)?,? (?:i (?:hear|appreciate|note|see|feel|notice|find)|there (?:is|are)) /i;

const ING: Record<string, string> = {
  refer: 'refer',
  order: 'order',
  send: 'send',
  add: 'add',
  switch: 'switch',
  stop: 'stop',
  check: 'check',
  start: 'start',
  giv: 'give',
  chang: 'change',
  increas: 'increase',
  decreas: 'decrease',
  prescrib: 'prescribe',
  schedul: 'schedule',
};

/** The scribe's wording of a clinician's sentence, still in the speaker's grammatical person. */
export function scribeWording(text: string, section: Section, speaker: Speaker): string {
  if (speaker === 'patient' || speaker === 'other') return text;
  let t = text;
  if (section === 'assessment') {
    t = t.replace(ASSESS_PREFIX, '').replace(LOOKS_LIKE, '').replace(SOUNDS_LIKE, 'likely ').replace(IS_A, '');
    if (diagnosisCue(t)) t = t.replace(THIS_IS, '');
    t = t.replace(/^(?:a|an) /i, '');
  } else if (section === 'plan') {
    for (const [re, to] of PLAN_PREFIXES) {
      const before = t;
      t = t.replace(re, to);
      if (t !== before) break;
    }
    for (const [re, to] of PLAN_VERBS) t = t.replace(re, to);
    t = t.replace(/^@ing(\w+) /, (_m, v: string) => `${ING[v.toLowerCase()] ?? v} `);
  } else if (section === 'exam') {
    t = t.replace(EXAM_PREFIX, (_m, part: string) => `${part.replace(/s$/, '')} exam reveals `);
  }
  return t;
}

/**
 * What the clinician says of themself reads in the third person: "I do appreciate a murmur" ->
 * "there is a murmur"; "I think he is retaining fluid" -> "the clinician thinks he is retaining
 * fluid" (the hedge kept); "call me" -> "call the clinician".
 */
export function clinicianVoice(text: string): string {
  return text
    .replace(
      /\bI (?:do |also |can |could )?(?:hear|appreciate|note|notice|see|feel)(?= (?:a|an|some|no|mild|moderate|trace|fine|slight|significant|\d))/g,
      'there is',
    )
    .replace(/\bI'm\b/g, 'the clinician is')
    .replace(/\bI've\b/g, 'the clinician has')
    .replace(/\bI'd\b/g, 'the clinician would')
    .replace(/\bI'll\b/g, 'the clinician will')
    .replace(
      /\bI (?:(do|don't|did|didn't|would|will|can|could|may|might) )?(?:(just|also|really|still|actually) )?([a-z']+)\b/g,
      (_m, aux: string | undefined, adv: string | undefined, verb: string) =>
        `the clinician ${aux ? `${AUX[aux] ?? aux} ` : ''}${adv ? `${adv} ` : ''}${aux ? verb : thirdPerson(verb)}`,
    )
    .replace(/\b(?:call|see|tell|contact|message|email|follow up with|let) me\b/gi, (m) => m.replace(/me$/i, 'the clinician'))
    .replace(/\bmy\b/g, "the clinician's")
    .replace(/\bme\b/g, 'the clinician')
    .replace(/^the clinician/, 'The clinician');
}

const AUX: Record<string, string> = { do: 'does', "don't": "doesn't" };

/** Placeholders left by scribeWording become words once pronouns are known. */
export function fillPlaceholders(text: string, p: Pronouns): string {
  return text.replace(/@advised /g, `${p.subj} was advised to `);
}

const ACRONYMS =
  /\b(mri|ct|ekg|ecg|er|a1c|copd|uti|cva|gerd|hiv|ent|icu|cbc|cmp|tsh|bmi|nsaids?|dvt|ed|pt|ot|bp|nkda|acl|mcl|pcp|ldl|hdl|psa|ivf|iud|adhd|ptsd|ssri|std|sti)\b/g;
const SAFE_LOWER = new Set(['ed', 'pt', 'ot']); // words too: upper-cased only after "the"

/** Upper-cases medical acronyms ASR writes in lower case ("mri" -> "MRI", "the er" -> "the ER"). */
export function acronyms(text: string): string {
  return text.replace(ACRONYMS, (w, _g, at: number) => {
    if (SAFE_LOWER.has(w) && !/\bthe $/.test(text.slice(Math.max(0, at - 4), at))) return w;
    if (w === 'er' && !/\bthe $/.test(text.slice(Math.max(0, at - 4), at))) return w;
    return w === 'nsaids' ? 'NSAIDs' : w === 'a1c' ? 'A1c' : w.toUpperCase();
  });
}
