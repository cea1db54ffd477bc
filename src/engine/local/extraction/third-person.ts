import type { Speaker } from './transcript.js';

/** Rewrites spoken first/second person into a clinician's third-person note style. */
export type Gender = 'female' | 'male' | 'unknown';

export interface Pronouns {
  subj: string; // she / he / the patient
  obj: string; // her / him / the patient
  poss: string; // her / his / the patient's
  refl: string; // herself / himself / themselves
}

export function pronouns(g: Gender): Pronouns {
  if (g === 'female') return { subj: 'she', obj: 'her', poss: 'her', refl: 'herself' };
  if (g === 'male') return { subj: 'he', obj: 'him', poss: 'his', refl: 'himself' };
  return { subj: 'the patient', obj: 'the patient', poss: "the patient's", refl: 'themselves' };
}

/** Guesses the patient's gender from how the clinician speaks about them. */
export function detectGender(text: string): Gender {
  const t = text.toLowerCase();
  const count = (re: RegExp) => (t.match(re) ?? []).length;
  const f = count(/\b(she|her|herself|female|woman|lady|mrs|ms|girl|pregnan\w*|menstrual|period)\b/g);
  const m = count(/\b(he|him|his|himself|male|man|gentleman|mr|boy|prostate)\b/g);
  if (f > m * 1.5 && f >= 2) return 'female';
  if (m > f * 1.5 && m >= 2) return 'male';
  return 'unknown';
}

const MODALS = new Set(['can', 'could', 'will', 'would', 'should', 'may', 'might', 'must', 'shall']);
const PAST = new Set([
  'felt',
  'took',
  'went',
  'had',
  'was',
  'were',
  'did',
  'got',
  'fell',
  'hurt',
  'saw',
  'came',
  'thought',
  'made',
  'said',
  'told',
  'ran',
  'broke',
  'left',
  'kept',
  'began',
  'ate',
  'drank',
  'slept',
  'woke',
  'wore',
  'heard',
  'knew',
  'gave',
  'found',
  'put',
  'sat',
  'stood',
  'lost',
  'bought',
  'brought',
  'caught',
  'hit',
  'quit',
  'read',
  'set',
  'cut',
  'let',
  'spent',
  'sent',
  'meant',
  'became',
  'forgot',
  'understood',
  'used',
  'just',
  'also',
  'still',
  'never',
  'always',
  'really',
  'usually',
  'actually',
  'only',
  'even',
  'often',
  'sometimes',
  'not',
  'already',
  'definitely',
  'probably',
  'ever',
]);
const IRREGULAR: Record<string, string> = {
  have: 'has',
  do: 'does',
  go: 'goes',
  am: 'is',
  are: 'is',
  "don't": "doesn't",
  "haven't": "hasn't",
  "aren't": "isn't",
  "'m": "'s",
  "'ve": "'s",
};

/** Third-person singular of a present-tense verb ("feel" -> "feels"). */
export function thirdPerson(verb: string): string {
  const v = verb.toLowerCase();
  if (IRREGULAR[v]) return IRREGULAR[v];
  if (MODALS.has(v) || PAST.has(v) || /ly$/.test(v) || /ed$|ing$|n't$|^[^a-z]/.test(v) || v.length < 2) return verb;
  if (/(s|sh|ch|x|z|o)$/.test(v)) return v + 'es';
  if (/[^aeiou]y$/.test(v)) return v.slice(0, -1) + 'ies';
  return v + 's';
}

const ADVERB =
  '(?:(?:just|also|still|never|ever|always|really|usually|actually|only|even|often|sometimes|definitely|probably|already|mostly|kind of|sort of)\\s+)?';

const NOT_VERB = new Set([
  'and',
  'or',
  'but',
  'guys',
  'all',
  'too',
  'as',
  'in',
  'on',
  'at',
  'to',
  'with',
  'for',
  'the',
  'a',
  'an',
  'that',
  'this',
  'so',
  'if',
  'because',
  'when',
  'there',
  'here',
  'back',
  'again',
  'now',
  'then',
  'both',
  'know',
  'of',
  'from',
  'about',
  'today',
  'yourself',
  'myself',
  'first',
  'two',
  'more',
  'better',
  'worse',
  'okay',
  'well',
  'alone',
  'only',
  'myself',
]);
// Words after which "you" is the subject of a new clause rather than an object.
const SUBJECT_PREV = new Set([
  '',
  'and',
  'but',
  'or',
  'so',
  'that',
  'if',
  'when',
  'because',
  'since',
  'as',
  'until',
  'before',
  'after',
  'where',
  'how',
  'what',
  'why',
  'then',
  'think',
  'know',
  'said',
  'mentioned',
  'while',
  'unless',
  'whether',
  'once',
  'also',
  'now',
  'which',
  'who',
  'like',
  'though',
  'although',
  'see',
  'says',
  'say',
  'told',
  'hear',
  'heard',
  'sure',
  'glad',
  'sounds',
  'seems',
  'looks',
  'and that',
]);

function rewriteSubject(text: string, subj: string, who: 'i' | 'you', obj: string): string {
  let t = text;
  const table: [string, string][] =
    who === 'i'
      ? [
          ["i'm", `${subj} is`],
          ['i am', `${subj} is`],
          ["i've", `${subj} has`],
          ["i'd", `${subj} would`],
          ["i'll", `${subj} will`],
          ['i was', `${subj} was`],
        ]
      : [
          ['do you', `does ${subj}`],
          ['are you', `is ${subj}`],
          ['have you', `has ${subj}`],
          ['were you', `was ${subj}`],
          ["don't you", `doesn't ${subj}`],
          ["you don't", `${subj} doesn't`],
          ['you do not', `${subj} does not`],
          ["you're", `${subj} is`],
          ['you are', `${subj} is`],
          ["you've", `${subj} has`],
          ["you'd", `${subj} would`],
          ["you'll", `${subj} will`],
          ['you were', `${subj} was`],
        ];
  for (const aux of ['did', 'can', 'will', 'would', 'could', 'should'])
    if (who === 'you') t = t.replace(new RegExp(`\\b${aux} you\\b`, 'gi'), `${aux} ${subj}`);
  for (const [from, to] of table) t = t.replace(new RegExp(`\\b${from}\\b`, 'gi'), to);
  // "i feel", "you still have" -> "she feels", "she still has"; object "you" -> "her"
  const re = new RegExp(`(\\S*)(\\s*)\\b${who}\\s+${ADVERB}([a-z']+)`, 'gi');
  t = t.replace(re, (m: string, prev: string, sp: string, verb: string) => {
    const lead = m.slice(0, prev.length + sp.length);
    const rest = m.slice(prev.length + sp.length + who.length).trim();
    const adv = rest.slice(0, -verb.length).trim();
    const p = prev.toLowerCase().replace(/[^a-z']/g, '');
    const atClause = who === 'i' || SUBJECT_PREV.has(p) || /[,.;:]$/.test(prev);
    if (!atClause) return `${lead}${obj} ${rest}`;
    if (NOT_VERB.has(verb.toLowerCase())) return `${lead}${subj} ${rest}`;
    return `${lead}${subj} ${adv ? adv + ' ' : ''}${thirdPerson(verb)}`;
  });
  return t;
}

export const CAREGIVER: Pronouns = { subj: 'the caregiver', obj: 'the caregiver', poss: "the caregiver's", refl: 'themselves' };

/** Rewrites one sentence said by `speaker` about the patient into third person. */
export function rewrite(text: string, speaker: Speaker, p: Pronouns, verbs?: Set<string>): string {
  let t = ` ${text} `;
  if (speaker === 'patient' || speaker === 'other') {
    // A companion's "I" is the companion ("i've been giving her tylenol"), never the patient.
    if (speaker === 'other') p = CAREGIVER;
    t = t
      .replace(/\b(?:like|as) you (?:asked|said|told me|suggested|recommended)\b/gi, 'as instructed')
      .replace(/\bmy\s?self\b/gi, p.refl)
      .replace(/\bmy\b/gi, p.poss)
      .replace(/\bmine\b/gi, p.poss)
      .replace(/\bme\b/gi, p.obj);
    t = rewriteSubject(t, p.subj, 'i', p.obj);
  } else if (speaker === 'doctor' || speaker === 'unknown') {
    // "I don't think you need to..." or "if you want to..." is no advice: those stay as said.
    t = t.replace(
      /\b(?:i(?:'d| would) like you to|i want you to|i need you to|you need to|you should|you want to)\b/gi,
      (m: string, at: number, all: string) =>
        /(?:\b(?:not|never|if|whether|when|unless)\b|n't)[^,.;]*$/i.test(all.slice(Math.max(0, at - 40), at))
          ? m
          : `${p.subj} was advised to`,
    );
    t = t.replace(
      /\b(?:i'm (?:also |just |now )?going to|i am (?:also |just )?going to|i'll|we're (?:also |just )?going to|we are going to|we'll|let's|let us|i'd (?:also )?like to|i would (?:also )?like to|i (?:also )?want to)\s+(?:go ahead and\s+)?/gi,
      (m) => (/^ ?i'?d|i would|i want/i.test(m) ? 'I would like to ' : /we|let/i.test(m) ? 'we will ' : 'I will '),
    );
    t = t.replace(/\bgo ahead and\s+/gi, '');
    t = t
      .replace(/\byour\s?self\b/gi, p.refl)
      .replace(/\byours\b/gi, p.poss)
      .replace(/\byour\b/gi, p.poss);
    t = rewriteSubject(t, p.subj, 'you', p.obj);
    t = t.replace(/\byou\b/gi, p.obj);
  }
  t = t.replace(/\bi\b/g, 'I').replace(/\bi'(m|ve|ll|d)\b/g, "I'$1");
  t = t.replace(/\b(the patient|she|he) (is|was) (?:gon na|going to)\b/gi, '$1 $2 going to');
  // "the patient squats or twist": the second verb of a pair agrees too (wink tagged it a verb).
  if (verbs?.size) {
    t = t.replace(
      /\b(the patient|she|he) ([a-z]+s) (or|and) ([a-z]+)\b(?=([.,;!?]|$)?)/gi,
      (m, s: string, v1: string, c: string, v2: string, end?: string) =>
        (verbs.has(v2.toLowerCase()) || end !== undefined) && !/s$/.test(v2) ? `${s} ${v1} ${c} ${thirdPerson(v2)}` : m,
    );
  }
  // Unknown gender: "the patient hurt the patient's knee" reads "the patient hurt their knee" within one clause.
  if (p.poss === "the patient's") {
    t = t.replace(
      /\b(the patient)((?: (?!and\b|but\b|or\b|so\b|when\b|because\b|while\b|if\b)[a-z]+){1,5}) the patient's\b/gi,
      '$1$2 their',
    );
  }
  return t.replace(/\s+/g, ' ').trim();
}

const TENS: Record<string, number> = { twenty: 20, thirty: 30, forty: 40, fifty: 50, sixty: 60, seventy: 70, eighty: 80, ninety: 90 };
const UNITS: Record<string, number> = { one: 1, two: 2, three: 3, four: 4, five: 5, six: 6, seven: 7, eight: 8, nine: 9 };
const NUMBERS: Record<string, string> = {
  one: '1',
  two: '2',
  three: '3',
  four: '4',
  five: '5',
  six: '6',
  seven: '7',
  eight: '8',
  nine: '9',
  ten: '10',
  eleven: '11',
  twelve: '12',
  fifteen: '15',
  twenty: '20',
  thirty: '30',
  forty: '40',
  fifty: '50',
  sixty: '60',
  hundred: '100',
};

/** Clinical notation: numerals for counts before units, "mg" for milligrams. */
export function notation(text: string): string {
  return (
    text
      .replace(
        /\b(twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety)[- ](one|two|three|four|five|six|seven|eight|nine)\b/gi,
        (_m, t: string, u: string) => String(TENS[t.toLowerCase()] + UNITS[u.toLowerCase()]),
      )
      .replace(
        /\b(two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|fifteen|twenty|thirty|forty|fifty|sixty)\b(?=\s+(?:days?|weeks?|months?|years?|hours?|minutes?|times?|mg|milligrams?|pounds?|lbs|out of|centimeters?|percent))/gi,
        (w) => NUMBERS[w.toLowerCase()] ?? w,
      )
      .replace(/\b(out of) (ten|five|four|six)\b/gi, (_m, a: string, n: string) => `${a} ${NUMBERS[n.toLowerCase()]}`)
      .replace(/\b(\d+(?:\.\d+)?)\s*milligrams?\b/gi, '$1 mg')
      .replace(/\b(\d+)\s*percent\b/gi, '$1%')
      // Units as notes write them: weight in lb, a body temperature in °F (a US clinic's units, said or implied).
      .replace(/\b(\d+(?:\.\d+)?) (?:pounds?|lbs)\b/gi, '$1 lb')
      .replace(/\b(weight(?: today| here)? (?:is|was|of|at)) (\d{2,3}(?:\.\d)?)\b(?! ?(?:lb|kg|kilo|%|\/))/gi, '$1 $2 lb')
      .replace(
        /\b((?:temperature|temp)(?: today| here| in the office)? (?:is|was|of|at)) (9[4-9]|10[0-8])(\.\d)?\b(?! ?(?:°|degrees|%))/gi,
        '$1 $2$3 °F',
      )
      .replace(/\b(\d+) %/g, '$1%')
  );
}
