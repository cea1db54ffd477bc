import { porterStemmer } from '../lib/porter-stemmer.js';

// Shared by the description index and the coder, so both sides normalise words the same way.

const STOPWORDS = new Set(
  (
    'a an the of and or in on at to for by with as from into onto is was were be been being are has have had ' +
    'this that these those which who whose its his her their he she it they them there than then also ' +
    'due mellitus patient do does did'
  ).split(' '),
);

// Words a description may carry that say nothing the note has to state. "Other" is not one of
// them: residual "Other ..." codes need the note to say so. "Displaced" and "closed" are the
// ICD-10-CM defaults for a fracture not said to be nondisplaced or open (chapter 19 guidelines).
export const FREE_WORDS = new Set(
  'unspecified nec elsewhere classified site organism side part initial encounter uncomplicated displaced closed'.split(' '),
);

// Spelling variants and adjective/noun pairs that descriptions and notes use interchangeably. (A
// map, not an object: a note's "constructor" is a word, not Object.prototype's.)
const WORD_MAP = new Map<string, string[]>(
  Object.entries({
    renal: ['kidney'],
    nephric: ['kidney'],
    hepatic: ['liver'],
    cardiac: ['heart'],
    pulmonary: ['lung'],
    gastric: ['stomach'],
    cerebral: ['brain'],
    tumor: ['neoplasm'],
    tumour: ['neoplasm'],
    tumors: ['neoplasm'],
    tumours: ['neoplasm'],
    neoplasia: ['neoplasm'],
    cancer: ['malignant', 'neoplasm'],
    cancers: ['malignant', 'neoplasm'],
    carcinoma: ['malignant', 'neoplasm'],
    carcinomas: ['malignant', 'neoplasm'],
    malignancy: ['malignant', 'neoplasm'],
    adenocarcinoma: ['malignant', 'neoplasm'],
    haemorrhage: ['hemorrhage'],
    haemorrhagic: ['hemorrhage'],
    hemorrhagic: ['hemorrhage'],
    bleeding: ['hemorrhage'],
    oedema: ['edema'],
    anaemia: ['anemia'],
    anaemic: ['anemia'],
    anemic: ['anemia'],
    oesophagus: ['esophagus'],
    oesophageal: ['esophagus'],
    esophageal: ['esophagus'],
    haematuria: ['hematuria'],
    paediatric: ['pediatric'],
    leukaemia: ['leukemia'],
    ischaemic: ['ischemic'],
    ischaemia: ['ischemia'],
    faeces: ['feces'],
    colour: ['color'],
    diarrhoea: ['diarrhea'],
    dyspnoea: ['dyspnea'],
    septicaemia: ['sepsis'],
    septicemia: ['sepsis'],
    septic: ['sepsis'],
    tb: ['tuberculosis'],
    // "Bitten on the hand by a dog" states the Index's "Bite, hand".
    bitten: ['bite'],
    nodal: ['lymph', 'node'],
    lymphadenopathy: ['enlarged', 'lymph', 'node'],
    adenopathy: ['enlarged', 'lymph', 'node'],
    adenopathies: ['enlarged', 'lymph', 'node'],
    lymphadenopathies: ['enlarged', 'lymph', 'node'],
    metastasis: ['secondary', 'malignant', 'neoplasm'],
    metastases: ['secondary', 'malignant', 'neoplasm'],
    metastatic: ['secondary', 'malignant', 'neoplasm'],
    bilateral: ['bilateral'],
    // The colon is the large intestine (the Index: "Diverticulosis, colon - see Diverticulosis, intestine, large").
    colon: ['colon', 'large', 'intestine'],
    // ... and so are its parts named alone ("sigmoid diverticulitis": the sigmoid colon).
    sigmoid: ['sigmoid', 'colon', 'large', 'intestine'],
    // The Index: "Broken, bone - see Fracture" (arm, leg, back, nose, tooth likewise).
    broke: ['fracture'],
    broken: ['fracture'],
    // Clinical abbreviations stand for their words, so the Index reads what qualifies them ("chronic
    // systolic CHF": Failure, heart, systolic, chronic) and the Index's own "Flu, see also Influenza".
    chf: ['congestive', 'heart', 'failure'],
    ckd: ['chronic', 'kidney', 'disease'],
    amd: ['age', 'related', 'macular', 'degeneration'],
    armd: ['age', 'related', 'macular', 'degeneration'],
    poag: ['primary', 'open', 'angle', 'glaucoma'],
    flu: ['influenza'],
    // A joint's arthroplasty is its replacement (the Index: "Replacement by artificial or mechanical device or prosthesis of, joint").
    arthroplasty: ['joint', 'replacement'],
    arthroplasties: ['joint', 'replacement'],
    // A stent is an implant (the Index: "Status, angioplasty, coronary artery, with implant"; "Presence, intravascular implant").
    stent: ['stent', 'implant'],
    stents: ['stent', 'implant'],
    stenting: ['stent', 'implant'],
    // A pacemaker not otherwise named is the heart's (the Index: "Presence, cardiac, pacemaker").
    pacemaker: ['cardiac', 'pacemaker'],
    pacemakers: ['cardiac', 'pacemaker'],
  }),
);

// Abbreviations a clinician writes as one word for several ("s/p": status post, the Index's
// "Status (post)"), read before the word is split at its slash or hyphen.
const WHOLE_WORDS = new Map<string, string[]>(
  Object.entries({
    's/p': ['status', 'post'],
    afib: ['atrial', 'fibrillation'],
    'a-fib': ['atrial', 'fibrillation'],
    trach: ['tracheostomy'],
    hd: ['hemodialysis'],
    o2: ['oxygen'],
    ppm: ['permanent', 'pacemaker'],
    bka: ['below', 'knee', 'amputation'],
    tka: ['total', 'knee', 'arthroplasty'],
    tkr: ['total', 'knee', 'replacement'],
    tha: ['total', 'hip', 'arthroplasty'],
    thr: ['total', 'hip', 'replacement'],
  }),
);

/**
 * The words a note may write (lower case) for a word `test` accepts: the abbreviations ("trach":
 * tracheostomy) and the words read as another ("arthroplasty": joint replacement). A reader that
 * finds its sentences by the words it knows finds them by these too.
 */
export function wordsStandingFor(test: (word: string) => boolean): string[] {
  return [...WHOLE_WORDS, ...WORD_MAP].filter(([, words]) => words.some((w) => (WORD_MAP.get(w) ?? [w]).some(test))).map(([word]) => word);
}

const ROMAN = new Map(Object.entries({ i: '1', ii: '2', iii: '3', iv: '4', v: '5' }));
const ROMAN_CONTEXT = new Set(['type', 'grade', 'stage', 'class', 'degree']);

// Each thread's word caches: bounded (a full cache starts again, so memory stays flat however many
// notes a thread reads), and keyed by copies, never by slices of a note (which would keep the whole note).
const CACHED_WORDS = 50_000;
const ownCopy = (s: string) => (s.length < 13 ? s : (' ' + s).slice(1));

const stemCache = new Map<string, string>();
function stem(word: string): string {
  let s = stemCache.get(word);
  if (s === undefined) {
    // The Porter stemmer makes "duodenitis" "duoden", like "duodenal": an inflammation is not its organ.
    s = /^\d/.test(word) ? word : word.endsWith('itis') ? word : porterStemmer.stem(word);
    if (stemCache.size >= CACHED_WORDS) stemCache.clear();
    stemCache.set(ownCopy(word), s);
  }
  return s;
}

// Every stem as a number, the same for the thread's life: the coder's matchers look stems up by
// number (arrays) rather than by name (a string hashed into a large Map, once per matcher per
// stem of a note). A matcher numbers every stem of its keys (stemNumber: the titles', the
// Index's and the lexicons' vocabularies, ~40,000); a note's stems are numbered while fewer than
// MAX_NOTE_STEM_NUMBERS have numbers (memory stays bounded however many notes a thread reads),
// and beyond it a stem never numbered is -1, which no key is (read by name where it matters).
const stemNumbers = new Map<string, number>();
const MAX_NOTE_STEM_NUMBERS = 100_000;

/** The stem's number, numbering it if it has none (for the keys of a matcher: always). */
export function stemNumber(stem: string): number {
  let n = stemNumbers.get(stem);
  if (n === undefined) stemNumbers.set(ownCopy(stem), (n = stemNumbers.size));
  return n;
}

/** The stem's number if it has one, else -1 (numbers nothing). */
export function numberedStem(stem: string): number {
  return stemNumbers.get(stem) ?? -1;
}

/** How many stems have numbers: every number is below it. */
export const stemNumberCount = (): number => stemNumbers.size;

/** A note's stem's number; -1 once the numbering is full for a stem never numbered (it is then no matcher's key). */
function noteStemNumber(stem: string): number {
  const n = stemNumbers.get(stem);
  if (n !== undefined) return n;
  return stemNumbers.size < MAX_NOTE_STEM_NUMBERS ? stemNumber(stem) : -1;
}

/** A word's stems, and their numbers. */
export interface WordStems {
  stems: readonly string[];
  numbers: readonly number[];
}

const wordCache = new Map<string, WordStems>();

/** Lower-cases, splits on non-alphanumerics and stems; stopwords give nothing. */
export function wordStems(raw: string, previous?: string): readonly string[] {
  return wordStemsNumbered(raw, previous).stems;
}

function wordStemsNumbered(raw: string, previous: string | undefined): WordStems {
  return wordStemsIn(raw, previous !== undefined && ROMAN_CONTEXT.has(previous));
}

/** A word's stems; `contextual`: it follows "type"/"grade"/... (a Roman numeral is then a number). */
function wordStemsIn(raw: string, contextual: boolean): WordStems {
  // Only a Roman numeral after "type"/"grade"/... depends on the previous word; the rest is cached.
  if (!contextual) {
    const hit = wordCache.get(raw);
    if (hit) return hit;
  }
  const out: string[] = [];
  const lowered = raw.toLowerCase();
  const whole = WHOLE_WORDS.get(lowered);
  if (whole) for (const w of whole) for (const m of WORD_MAP.get(w) ?? [w]) out.push(stem(m));
  // "Crohn's" and "Crohn" are one word; single letters stay ("hepatitis C", "Q fever", "vitamin D").
  else
    for (const piece of lowered.replace(/['’]s\b/g, '').split(/[^a-z0-9]+/)) {
      if (piece === '' || STOPWORDS.has(piece)) continue;
      const roman = contextual ? ROMAN.get(piece) : undefined;
      if (roman) {
        out.push(roman);
        continue;
      }
      const mapped = WORD_MAP.get(piece);
      if (mapped) for (const m of mapped) out.push(stem(m));
      else out.push(stem(piece));
    }
  const numbers = out.map(noteStemNumber);
  // A word with a stem left unnumbered is read again next time (a matcher may number it meanwhile).
  if (contextual || numbers.includes(-1)) return { stems: out.slice(), numbers };
  const entry = sharedEntry(out, numbers);
  if (wordCache.size >= CACHED_WORDS) wordCache.clear();
  wordCache.set(ownCopy(raw), entry);
  return entry;
}

// The words of one stem share its entry ("fracture", "Fractures", "fractured"), and every word of
// no stem the empty one: an entry and its two arrays were ~150 bytes a word of the cache.
const NO_STEMS: WordStems = { stems: [], numbers: [] };
const oneStem: Array<WordStems | undefined> = [];

/** The entry of these stems (numbered): one per stem for the words of one stem, else a copy at its exact length (`stems`, built by push, reserves 17 slots). */
function sharedEntry(stems: string[], numbers: number[]): WordStems {
  if (stems.length === 0) return NO_STEMS;
  if (stems.length > 1) return { stems: stems.slice(), numbers };
  return (oneStem[numbers[0]] ??= { stems: [stems[0]], numbers });
}

// stemWords' reused arrays (as long as the longest run of words read; stemWords never calls itself).
const scratchStems: string[] = [];
const scratchFrom: number[] = [];
const scratchNumbers: number[] = [];

/**
 * A run of words given by ids (a tokenizer's: the same id, the same word) and the stems read for
 * each id so far, which stemWords then reads by id instead of looking each word up by name.
 */
export interface WordIds {
  ids: ArrayLike<number>;
  stemsById: Array<WordStems | undefined>;
}

/** Stems of a run of words, with the position (index in `words`) each stem came from, and each stem's number (stemNumber, or -1). */
export function stemWords(words: readonly string[], byId?: WordIds): { stems: string[]; from: number[]; numbers: number[] } {
  // Read into arrays reused from call to call, then copied at their exact length (arrays grown by
  // push keep up to half again, and are copied as they grow).
  let n = 0;
  let contextual = false;
  for (let i = 0; i < words.length; i++) {
    const w = words[i];
    let entry: WordStems;
    if (byId && !contextual) {
      // Kept by id as wordStemsIn keeps it by name: only with every stem numbered.
      const id = byId.ids[i];
      const known = byId.stemsById[id];
      entry = known ?? wordStemsIn(w, false);
      if (!known && !entry.numbers.includes(-1)) byId.stemsById[id] = entry;
    } else entry = wordStemsIn(w, contextual);
    for (let k = 0; k < entry.stems.length; k++, n++) {
      if (n < scratchStems.length) {
        scratchStems[n] = entry.stems[k];
        scratchFrom[n] = i;
        scratchNumbers[n] = entry.numbers[k];
      } else {
        scratchStems.push(entry.stems[k]);
        scratchFrom.push(i);
        scratchNumbers.push(entry.numbers[k]);
      }
    }
    // The context words are 4 to 6 letters long: no other word is lower-cased for the test.
    contextual = w.length >= 4 && w.length <= 6 && ROMAN_CONTEXT.has(w.toLowerCase());
  }
  return { stems: scratchStems.slice(0, n), from: scratchFrom.slice(0, n), numbers: scratchNumbers.slice(0, n) };
}

/** The stems of a phrase (an Index or Tabular title), its words in brackets ("(ulcer)", "(of)") left out. */
export function phraseStems(text: string): string[] {
  return stemWords(
    text
      .toLowerCase()
      .replace(/\([^)]*\)/g, ' ')
      .split(/[\s,]+/)
      .filter(Boolean),
  ).stems;
}

export interface DescriptionToken {
  stem: string;
  /** A word the note need not state: "unspecified", or anything in a "without ..." / "not ..." clause. */
  free: boolean;
}

/** Tokens of an official title; words after "without"/"not" up to the next comma are free. */
export function descriptionTokens(description: string): DescriptionToken[] {
  const out: DescriptionToken[] = [];
  let negScope = false;
  let prev: string | undefined;
  for (const m of description.toLowerCase().matchAll(/[a-z0-9']+|[,;()[\]]/g)) {
    const w = m[0];
    if (w === ',' || w === ';' || w === '(' || w === ')' || w === '[' || w === ']') {
      negScope = false;
      continue;
    }
    // "Do not resuscitate" states a "not"; it is no negation clause. "Unspecified as acute or
    // chronic", "unspecified whether with hypoxia": the rest of the clause need not be stated.
    const unspecifiedClause = prev === 'unspecified' && (w === 'as' || w === 'whether');
    if (w === 'without' || (w === 'not' && prev !== 'do') || w === 'no' || unspecifiedClause) {
      negScope = true;
      prev = w;
      continue;
    }
    // "Without perforation or abscess with bleeding": a later "with" states something again.
    if (w === 'with' && prev !== 'whether') negScope = false;
    const free = negScope || FREE_WORDS.has(w);
    for (const s of wordStems(w, prev)) out.push({ stem: s, free });
    prev = w;
  }
  return out;
}
