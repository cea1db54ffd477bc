/** How a sentence presents a word: asserted, or one of the reasons not to code it. */
export type Assertion = 'present' | 'negated' | 'family' | 'historical' | 'uncertain' | 'hypothetical';

// ConText-style triggers (Harkema et al. 2009), kept short.
const FORWARD: Array<[string, Assertion]> = [
  ['no', 'negated'],
  ['not', 'negated'],
  // "not yet on dialysis": "yet" ends a clause ("..., yet no fever") but not the negation it follows.
  ['not yet', 'negated'],
  ['not as yet', 'negated'],
  ['without', 'negated'],
  ['denies', 'negated'],
  ['denied', 'negated'],
  ['deny', 'negated'],
  ['negative for', 'negated'],
  ['free of', 'negated'],
  ['absence of', 'negated'],
  ['no evidence of', 'negated'],
  ['no signs of', 'negated'],
  ['no sign of', 'negated'],
  ['never', 'negated'],
  ['nor', 'negated'],
  ['ruled out', 'negated'],
  ['excluded', 'negated'],
  ['family history', 'family'],
  ['family history of', 'family'],
  ['mother', 'family'],
  ['father', 'family'],
  ['brother', 'family'],
  ['sister', 'family'],
  ['sibling', 'family'],
  ['siblings', 'family'],
  ['aunt', 'family'],
  ['uncle', 'family'],
  ['grandmother', 'family'],
  ['grandfather', 'family'],
  ['parents', 'family'],
  ['cousin', 'family'],
  ['maternal', 'family'],
  ['paternal', 'family'],
  ['fh', 'family'],
  // Uncertain diagnoses (guidelines IV.H and II.H): "probable", "suspected", "rule out", "versus".
  ['rule out', 'uncertain'],
  ['r/o', 'uncertain'],
  ['to exclude', 'uncertain'],
  ['suspected', 'uncertain'],
  ['suspect', 'uncertain'],
  ['suspects', 'uncertain'],
  ['suspicion of', 'uncertain'],
  ['suspicious for', 'uncertain'],
  ['possible', 'uncertain'],
  ['possibly', 'uncertain'],
  ['probable', 'uncertain'],
  ['probably', 'uncertain'],
  ['likely', 'uncertain'],
  ['most likely', 'uncertain'],
  ['presumed', 'uncertain'],
  ['presumptive', 'uncertain'],
  ['questionable', 'uncertain'],
  ['query', 'uncertain'],
  ['versus', 'uncertain'],
  ['vs', 'uncertain'],
  ['vs.', 'uncertain'],
  ['consistent with', 'uncertain'],
  ['compatible with', 'uncertain'],
  ['suggestive of', 'uncertain'],
  ['working diagnosis', 'uncertain'],
  ['differential diagnosis', 'uncertain'],
  ['concern for', 'uncertain'],
  ['evaluate for', 'uncertain'],
  ['if', 'hypothetical'],
  ['risk of', 'hypothetical'],
  ['at risk for', 'hypothetical'],
  ['in case of', 'hypothetical'],
  ['prophylaxis', 'hypothetical'],
  ['prevention of', 'hypothetical'],
  ['screening for', 'hypothetical'],
  ['consider', 'hypothetical'],
  ['should', 'hypothetical'],
  ['could', 'hypothetical'],
  ['once', 'hypothetical'],
  // A treatment or a state the plan foresees is not the patient's yet ("will need dialysis",
  // "candidate for kidney transplant"): these reach only their neighbours.
  ['will need', 'hypothetical'],
  ['may need', 'hypothetical'],
  ['will start', 'hypothetical'],
  ['plan to start', 'hypothetical'],
  ['candidate for', 'hypothetical'],
  ['resolved', 'historical'],
  ['resolution of', 'historical'],
  ['recovered from', 'historical'],
  ['in childhood', 'historical'],
  ['as a child', 'historical'],
  ['previous episode of', 'historical'],
  ['remote history of', 'historical'],
  ['past history of', 'historical'],
];

const BACKWARD: Array<[string, Assertion]> = [
  ['was ruled out', 'negated'],
  ['were ruled out', 'negated'],
  ['ruled out', 'negated'],
  ['was excluded', 'negated'],
  ['were excluded', 'negated'],
  ['was negative', 'negated'],
  ['were negative', 'negated'],
  ['absent', 'negated'],
  ['not found', 'negated'],
  ['not seen', 'negated'],
  ['not observed', 'negated'],
  ['not detected', 'negated'],
  ['unlikely', 'uncertain'],
  ['was suspected', 'uncertain'],
  ['cannot be excluded', 'uncertain'],
  ['likely', 'uncertain'],
  ['is likely', 'uncertain'],
  ['versus', 'uncertain'],
  ['vs', 'uncertain'],
  ['vs.', 'uncertain'],
  ['suspected', 'uncertain'],
  ['resolves', 'hypothetical'],
  ['will be started', 'hypothetical'],
  ['will be initiated', 'hypothetical'],
  ['to be started', 'hypothetical'],
  ['to be initiated', 'hypothetical'],
  ['may be needed', 'hypothetical'],
  ['may be required', 'hypothetical'],
  ['will be needed', 'hypothetical'],
  ['planned', 'hypothetical'],
  ['is planned', 'hypothetical'],
  ['in the family', 'family'],
  ['in her mother', 'family'],
  ['in his mother', 'family'],
  ['in his father', 'family'],
  ['in her father', 'family'],
  ['resolved', 'historical'],
  ['has resolved', 'historical'],
  ['healed', 'historical'],
  ['has healed', 'historical'],
  ['has fully healed', 'historical'],
  ['well-healed', 'historical'],
  ['is gone', 'historical'],
  ['are gone', 'historical'],
  ['has gone away', 'historical'],
  ['went away', 'historical'],
  ['have gone away', 'historical'],
  ['cleared', 'historical'],
  ['has cleared', 'historical'],
  ['corrected', 'historical'],
  ['years ago', 'historical'],
  ['in the past', 'historical'],
];

// Pseudo-triggers (ConText): phrases holding a trigger word that negate nothing.
const PSEUDO: string[][] = [
  ['do', 'not', 'resuscitate'],
  ['not', 'only'],
  ['no', 'change'],
  ['no', 'increase'],
  ['not', 'ruled', 'out'],
  ['once', 'daily'],
  ['once', 'a'],
  ['once', 'again'],
  ['once', 'more'],
  ['once', 'weekly'],
];

const TERMINATORS = new Set(['but', 'however', 'although', 'though', 'except', 'yet', 'whereas', 'which', 'who', ';', ':', '.']);
// A negation ends where a new predicate begins (NegEx's termination terms): "with no history of
// interest presented with abdominal pain", "without known allergies, diagnosed with gastric
// adenocarcinoma", "no allergies or toxic habits, was hypertensive". Only once the scope holds a
// word: "did not have fever" still denies the fever.
const PREDICATES = new Set([
  'presented',
  'presents',
  'presenting',
  'was',
  'has',
  'were',
  'is',
  'are',
  'admitted',
  'diagnosed',
  'developed',
  'showed',
  'revealed',
  'consulted',
  'underwent',
  'referred',
]);

/** Whether a negation's forward scope, `n` words long so far (its trigger's last word at j - n - 1), ends at word j. */
function negationEnds(lower: readonly string[], j: number, n: number): boolean {
  if (n === 0) return false;
  const w = lower[j];
  // "Migraine without aura with status migrainosus": "with" after "without" states what is there.
  return PREDICATES.has(w) || (w === ',' && lower[j + 1] === 'with') || (w === 'with' && lower[j - n - 1] === 'without');
}
const SCOPE = 8;
// "asthma versus bronchitis", "pneumonia likely": these reach only their neighbours.
const SHORT = new Set([
  'versus',
  'vs',
  'likely',
  'is likely',
  'will need',
  'may need',
  'will start',
  'plan to start',
  'candidate for',
  'will be started',
  'will be initiated',
  'to be started',
  'to be initiated',
  'may be needed',
  'may be required',
  'will be needed',
  'planned',
  'is planned',
]);
const SHORT_SCOPE = 3;

// A trigger read both ways ("suspected asthma", "asthma suspected") reaches back only when it
// closes what it speaks of: followed by the end of its clause or a word that leads no condition
// ("pneumonia ruled out by CT", "hypertension resolved after weight loss"). "Wheezing and shortness
// of breath, suspected asthma": the asthma is suspected, not the wheezing.
const CLOSING = new Set([
  ',',
  'after',
  'by',
  'on',
  'with',
  'given',
  'in',
  'at',
  'since',
  'following',
  'for',
  'from',
  'now',
  'today',
  'clinically',
  'radiologically',
  'and',
  'or',
  'as',
  'per',
  'completely',
  'fully',
]);
function reachesBack(lower: readonly string[], i: number, len: number): boolean {
  if (ATTRIBUTIVE.has(lower[i]) && len === 1) return !attributive(lower, i);
  if (!FWD.get(lower[i])?.some(([p]) => p.length === len && matchAt(lower, i, p))) return true;
  const next = lower[i + len];
  return next === undefined || TERMINATORS.has(next) || CLOSING.has(next) || !/[a-z]/.test(next);
}

// A past participle before its noun speaks of that noun ("the healed Colles fracture", "a
// well-healed scar"), not of the words before it ("stiffness of the wrist, a late effect of the
// healed fracture": the stiffness is current); after its noun it closes it ("the fracture has healed").
const ATTRIBUTIVE = new Set(['healed', 'well-healed']);
const NOT_NOUN = new Set(['well', 'nicely', 'completely', 'fully', 'now', 'since', 'without', 'and', 'or', 'but']);
function attributive(lower: readonly string[], i: number): boolean {
  const next = lower[i + 1];
  return next !== undefined && /^[a-z]/.test(next) && !TERMINATORS.has(next) && !CLOSING.has(next) && !NOT_NOUN.has(next);
}
/** The words an attributive participle at i reaches: its noun phrase, to a comma or a terminator, four words at most. */
function attributiveReach(lower: readonly string[], i: number): number {
  let j = i + 1;
  for (let n = 0; j < lower.length && n < 4 && !TERMINATORS.has(lower[j]) && lower[j] !== ','; j++, n++);
  return j - 1;
}

/** A trigger's words, what it asserts, and whether it reaches only its neighbours (SHORT). */
type Compiled = readonly [words: string[], assertion: Assertion, short: boolean];

/** Triggers by their first word, longest first, so each word looks only at its own few. */
function compile(list: Array<[string, Assertion]>): Map<string, Compiled[]> {
  const byFirst = new Map<string, Compiled[]>();
  for (const [p, a] of list) {
    const words = p.split(' ');
    const entries = byFirst.get(words[0]) ?? [];
    entries.push([words, a, SHORT.has(p)]);
    byFirst.set(words[0], entries);
  }
  for (const entries of byFirst.values()) entries.sort((x, y) => y[0].length - x[0].length);
  return byFirst;
}
const FWD = compile(FORWARD);
// "History of X" is past for some conditions and a chronic current one for others (a PMH list's
// "history of hypertension"): it asserts nothing by itself here. The history rule reads it
// (guidelines/history.ts), and traits name it.
export const HISTORY_OF: Array<[string, Assertion]> = [
  ['history of', 'historical'],
  ['personal history of', 'historical'],
  ['hx of', 'historical'],
  ['h/o', 'historical'],
];
const FWD_TRAITS = compile([...FORWARD, ...HISTORY_OF]);
const BWD = compile(BACKWARD);

/** A trigger found in a sentence: what it asserts, its words, and the words it reaches. */
export interface Trigger {
  assertion: Assertion;
  /** word positions of the trigger itself */
  start: number;
  end: number;
  /** word positions it reaches */
  from: number;
  to: number;
}

const triggered = new WeakMap<readonly string[], readonly Trigger[]>();

/**
 * Every ConText trigger of a sentence with its reach (the same scopes `assertWords` applies,
 * without list continuation). Read once per sentence (the history rule and the traits ask again):
 * the array is shared, never to be changed. `lower`: the words in lower case, when the caller has them.
 */
export function triggersOf(words: readonly string[], lower?: readonly string[]): readonly Trigger[] {
  let out = triggered.get(words);
  if (!out) triggered.set(words, (out = triggersOnce(lower ?? words.map((w) => w.toLowerCase()))));
  return out;
}

function triggersOnce(lower: readonly string[]): Trigger[] {
  const out: Trigger[] = [];
  for (let i = 0; i < lower.length; i++) {
    // Most words start no trigger: one look-up says so.
    if (!TRAIT_FIRST_WORDS.has(lower[i])) continue;
    const f = triggerAt(FWD_TRAITS, lower, i);
    if (f) {
      const scope = f[2] ? SHORT_SCOPE : SCOPE;
      let j = i + f[0].length;
      for (
        let n = 0;
        j < lower.length && n < scope && !TERMINATORS.has(lower[j]) && !(f[1] === 'negated' && negationEnds(lower, j, n));
        j++, n++
      );
      out.push({ assertion: f[1], start: i, end: i + f[0].length - 1, from: i + f[0].length, to: j - 1 });
    }
    const b = backwardAt(lower, i, true);
    if (b && b[0].length === 1 && ATTRIBUTIVE.has(lower[i]) && attributive(lower, i))
      out.push({ assertion: b[1], start: i, end: i, from: i + 1, to: attributiveReach(lower, i) });
    else if (b && (b[2] || reachesBack(lower, i, b[0].length))) {
      const scope = b[2] ? SHORT_SCOPE : SCOPE;
      let j = i - 1;
      for (let n = 0; j >= 0 && n < scope && !TERMINATORS.has(lower[j]); j--, n++);
      out.push({ assertion: b[1], start: i, end: i + b[0].length - 1, from: j + 1, to: i - 1 });
    }
  }
  return out;
}

function matchAt(words: readonly string[], i: number, phrase: readonly string[]): boolean {
  for (let k = 0; k < phrase.length; k++) if (words[i + k] !== phrase[k]) return false;
  return true;
}

const PRIORITY: Record<Assertion, number> = { present: 0, historical: 1, uncertain: 2, hypothetical: 3, negated: 4, family: 5 };

const PSEUDO_BY_FIRST = new Map<string, string[][]>();
for (const p of PSEUDO) PSEUDO_BY_FIRST.set(p[0], [...(PSEUDO_BY_FIRST.get(p[0]) ?? []), p]);
// The words a trigger (or a pseudo-trigger, or a past year's "in") can start with.
const FIRST_WORDS = new Set([...PSEUDO_BY_FIRST.keys(), ...FWD.keys(), ...BWD.keys()]);
const TRAIT_FIRST_WORDS = new Set([...FWD_TRAITS.keys(), ...BWD.keys(), 'in']);

/** The first trigger of `byFirst` that the words state at i (longest first), or undefined. */
function triggerAt(byFirst: Map<string, Compiled[]>, lower: readonly string[], i: number): Compiled | undefined {
  const entries = byFirst.get(lower[i]);
  if (entries) for (let k = 0; k < entries.length; k++) if (matchAt(lower, i, entries[k][0])) return entries[k];
  return undefined;
}

export const PAST_YEAR = /^(19[5-9]\d|20[0-2]\d)$/;
// A time that dates when a condition began ("diagnosed ten years ago", "since 2015") does not make
// it past; one that dates the condition itself does ("kidney stones in 2018", "an MI years ago").
const ONSET = new Set([
  'diagnosed',
  'diagnosis',
  'dx',
  'onset',
  'began',
  'begun',
  'started',
  'since',
  'known',
  'first',
  'initially',
  'developed',
]);

/**
 * The backward trigger at i: one of BACKWARD, or with `years` a past year ("in 2018", historical:
 * like "history of", the history rule reads it, guidelines/history.ts); a historical one is no
 * trigger when its reach says when the condition began.
 */
function backwardAt(lower: readonly string[], i: number, years = false): Compiled | undefined {
  let b = triggerAt(BWD, lower, i);
  if (!b && years && lower[i] === 'in' && PAST_YEAR.test(lower[i + 1] ?? '')) b = [[lower[i], lower[i + 1]], 'historical', false];
  if (!b || b[1] !== 'historical') return b;
  for (let j = i - 1, n = 0; j >= 0 && n < SCOPE && !TERMINATORS.has(lower[j]); j--, n++) if (ONSET.has(lower[j])) return undefined;
  return b;
}

const asserted = new WeakMap<readonly string[], Assertion[]>();

/**
 * The assertion of each word of a sentence, from the ConText triggers. Read once per sentence
 * (the guideline rules ask again): the array is shared, never to be changed. `lower`: the words in
 * lower case, when the caller has them.
 */
export function assertWords(words: readonly string[], lower?: readonly string[]): Assertion[] {
  let out = asserted.get(words);
  if (!out) asserted.set(words, (out = assertWordsOnce(lower ?? words.map((w) => w.toLowerCase()))));
  return out;
}

function assertWordsOnce(lower: readonly string[]): Assertion[] {
  const out = new Array<Assertion>(lower.length).fill('present');
  let pseudoUntil = -1;
  for (let i = 0; i < lower.length; i++) {
    // Most words start no trigger or pseudo-trigger: one look-up says so.
    if (!FIRST_WORDS.has(lower[i])) continue;
    const pseudo = PSEUDO_BY_FIRST.get(lower[i]);
    if (pseudo) for (const p of pseudo) if (matchAt(lower, i, p)) pseudoUntil = Math.max(pseudoUntil, i + p.length - 1);
    if (i <= pseudoUntil) continue;
    const f = triggerAt(FWD, lower, i);
    if (f) {
      const p = f[0];
      const a = f[1];
      const scope = f[2] ? SHORT_SCOPE : SCOPE;
      let j = i + p.length;
      let ended = false;
      for (
        let n = 0;
        j < lower.length && n < scope && !TERMINATORS.has(lower[j]) && !(scope === SHORT_SCOPE && lower[j] === ',');
        j++, n++
      ) {
        if (a === 'negated' && negationEnds(lower, j, n)) {
          ended = true;
          break;
        }
        raise(out, j, a);
      }
      if (a === 'negated' && scope === SCOPE && !ended) for (const k of listContinuation(lower, i + p.length, j)) raise(out, k, a);
    }
    const b = backwardAt(lower, i);
    if (b && b[0].length === 1 && ATTRIBUTIVE.has(lower[i]) && attributive(lower, i)) {
      for (let j = i + 1, to = attributiveReach(lower, i); j <= to; j++) raise(out, j, b[1]);
    } else if (b && (b[2] || reachesBack(lower, i, b[0].length))) {
      const a = b[1];
      const scope = b[2] ? SHORT_SCOPE : SCOPE;
      for (
        let j = i - 1, n = 0;
        j >= 0 && n < scope && !TERMINATORS.has(lower[j]) && !(scope === SHORT_SCOPE && lower[j] === ',');
        j--, n++
      )
        raise(out, j, a);
    }
  }
  return out;
}

/** Word i's assertion raised to `a` where `a` weighs more (a plain function: assertWordsOnce makes no closure per call). */
function raise(out: Assertion[], i: number, a: Assertion): void {
  if (PRIORITY[a] > PRIORITY[out[i]]) out[i] = a;
}

const LIST_SEPARATORS = new Set([',', 'or', 'and']);
/** Words of one list item at most: "chest pain", "shortness of breath", "blood in the stool". */
const LIST_ITEM_WORDS = 4;
/** A word that opens a clause, not an item: "..., reporting more pain", "..., with swelling". */
const CLAUSE_OPENER =
  /^(?:with|he|she|they|it|there|the|this|is|was|were|has|had|reports?|reporting|presents?|presenting|complains?|complaining)$/;
/** An item of three or more words led by a gerund is a clause too ("..., describing sharp pain"); "vomiting" alone is an item. */
const GERUND = /ing$/;

/**
 * A negation over a list reaches the whole list ("denies fever, chills, nausea, vomiting, chest
 * pain or shortness of breath"), past the fixed scope that ended at `end`: while the words from
 * `start` run in short items between commas (or "or"/"and"), the next items are negated too, up
 * to a terminator or an item too long to be one (a new clause).
 */
function listContinuation(lower: readonly string[], start: number, end: number): number[] {
  if (end >= lower.length || TERMINATORS.has(lower[end])) return [];
  let item = 0;
  let separators = 0;
  let first = '';
  for (let k = start; k < end; k++) {
    if (LIST_SEPARATORS.has(lower[k])) {
      separators++;
      item = 0;
    } else if (++item === 1) first = lower[k];
    if (item > LIST_ITEM_WORDS || (item >= 3 && GERUND.test(first))) return [];
  }
  if (separators === 0) return [];
  const out: number[] = [];
  const pending: number[] = [];
  for (let k = end; k < lower.length && !TERMINATORS.has(lower[k]); k++) {
    if (LIST_SEPARATORS.has(lower[k])) {
      out.push(...pending, k);
      pending.length = 0;
      item = 0;
      continue;
    }
    if (++item === 1) first = lower[k];
    if (item > LIST_ITEM_WORDS || (item === 1 && CLAUSE_OPENER.test(first)) || (item >= 3 && GERUND.test(first))) return out;
    pending.push(k);
  }
  return [...out, ...pending];
}

/** The strongest non-present assertion over a span of words, or 'present'; `skip`: words read as the absence a title names ("without aura"). */
export function assertionOf(assertions: readonly Assertion[], start: number, end: number, skip?: readonly number[]): Assertion {
  let best: Assertion = 'present';
  for (let i = start; i <= end; i++) if (PRIORITY[assertions[i]] > PRIORITY[best] && !skip?.includes(i)) best = assertions[i];
  return best;
}
