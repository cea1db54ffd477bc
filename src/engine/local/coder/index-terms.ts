import type { IndexTabular } from '../../../terminology/index-tabular.js';
import { stemNumber, stemNumberCount, wordStems } from '../../../terminology/text-normalize.js';
import { titleTextOf } from './title-text.js';

/**
 * How an Index title reads, as the coder matches it: the stems the note must state (any one of
 * the alternatives), and its connector. "with X" subterms follow guideline I.A.15 (the note states
 * X anywhere); "without X" applies only when the note does not state X; a title with nothing to
 * state ("specified type NEC") is the default of its parent.
 */
export interface TitleReading {
  alts: string[][];
  connector: '' | 'with' | 'without' | 'due';
}

/** A reading as readingOf keeps it: with the numbers of its alternatives' stems (stemNumbers), one after another. */
export interface KeptReading extends TitleReading {
  ids: readonly number[];
}

// Words of Index titles that the note need not state.
const NEUTRAL = new Set([
  'nec',
  'nos',
  'specified',
  'unspecified',
  'other',
  'site',
  'type',
  'classified',
  'elsewhere',
  'than',
  'condition',
  'so',
  'stated',
  // "lateral malleolus only": the note names the one part and says nothing of the others (the
  // set holds stems: "onli" is the stem of "only").
  'onli',
]);
const CONNECTORS: Array<[RegExp, TitleReading['connector']]> = [
  [/^without\b/, 'without'],
  [/^(with|associated with|complicated by|complicating)\b/, 'with'],
  [/^(due to|in|following|after|from|secondary to|resulting from|caused by|induced by)\b/, 'due'],
];

const TIME = new Set([
  'one',
  'two',
  'three',
  'four',
  'five',
  'six',
  'seven',
  'eight',
  'nine',
  'ten',
  'dai',
  'day',
  'week',
  'month',
  'year',
  'hour',
  'minut',
]);
const UNREADABLE = '\u0000';

const stemsOf = (text: string) =>
  text
    .split(/\s+/)
    .flatMap((w) => wordStems(w))
    .filter((s) => !NEUTRAL.has(s));

/**
 * Words of onset and course that refine the word before them in a subterm: "mesenteric, acute"
 * (Ischemia) is acute mesenteric ischemia, "kidney, congenital" a congenital kidney's; they are no
 * alternative names of it ("tooth, teeth"), so the subterm needs both words. An "acute ischemic
 * stroke" states no mesenteric ischemia.
 */
const QUALIFIERS = new Set([
  'acute',
  'subacute',
  'chronic',
  'congenital',
  'acquired',
  'newborn',
  'neonatal',
  'transient',
  'transitory',
  'traumatic',
  'nontraumatic',
  'persisting',
  'persistent',
  'recurrent',
]);

/** A subterm of one-word parts whose later part is a qualifier of the first ("mesenteric, acute"), not its alternative. */
const qualified = (parts: readonly string[]) => !QUALIFIERS.has(parts[0]) && parts.slice(1).some((p) => QUALIFIERS.has(p));

/** The later comma parts of a main term's title that are close variants of its head ("Gout, gouty"). */
function variantsOf(parts: readonly string[], head: string): string[] {
  const out: string[] = [];
  for (let k = 1; k < parts.length; k++) if (!/\s/.test(parts[k]) && parts[k].slice(0, 3) === head.slice(0, 3)) out.push(parts[k]);
  return out;
}

/** A title's stems that only say when (durations: "three-day", "2 weeks"). */
function timeOnly(a: readonly string[]): boolean {
  for (const s of a) if (!TIME.has(s) && !/^\d/.test(s)) return false;
  return true;
}

/** Reads one title: main terms (`main`) keep only their first comma part and its close variants. */
export function readTitle(raw: string, main: boolean, coded = true): TitleReading {
  let t = raw
    .toLowerCase()
    .replace(/\([^)]*\)/g, ' ')
    .replace(/\s-\s.*$/, '') // "site other than knee - code as Sprain"
    .trim();
  let connector: TitleReading['connector'] = '';
  for (const [re, c] of CONNECTORS) {
    const m = re.exec(t);
    if (m) {
      connector = c;
      t = t.slice(m[0].length).trim();
      break;
    }
  }
  // "Metatarsal bone", "nasal bone": the bone is named without the word ("fifth metatarsal").
  if (!main) t = t.replace(/^([a-z-]+(?: [a-z-]+)*) bones?$/, '$1');
  const parts = t.split(/,\s*/).filter(Boolean);
  let alts: string[][];
  const head = parts[0]?.split(/\s+/)[0] ?? '';
  if (main) alts = [parts[0] ?? '', ...variantsOf(parts, head)].map(stemsOf);
  else if (parts.length > 1 && parts.every((p) => !/\s/.test(p)) && !qualified(parts)) alts = parts.map(stemsOf);
  // "moderate or severe" (F12.20): either word states it; an uncoded "healed or old" is read whole.
  else if (coded && parts.length === 1 && /^[a-z-]+ or [a-z-]+$/.test(parts[0])) alts = parts[0].split(' or ').map(stemsOf);
  else alts = [stemsOf(parts.join(' '))];
  // Durations ("three-day", "2 weeks") say when, not what: a title of such words alone is not read.
  alts = alts.filter((a) => a.length > 0);
  if (alts.length && alts.every(timeOnly)) return { alts: [[UNREADABLE]], connector };
  return { alts, connector };
}

interface Readings {
  byTerm: Array<KeptReading | undefined>;
  /** each reading kept once, by its connector and stems (readingKey) */
  same: Map<string, KeptReading>;
}
const readings = new WeakMap<IndexTabular, Readings>();
let lastIt: IndexTabular | undefined;
let lastCache: Array<KeptReading | undefined> = [];
let lastSame = new Map<string, KeptReading>();

/** The reading of term i, computed on first use (only the terms a note reaches are read). */
export function readingOf(it: IndexTabular, i: number): KeptReading {
  if (it !== lastIt) {
    let cache = readings.get(it);
    if (!cache) readings.set(it, (cache = { byTerm: new Array<KeptReading | undefined>(it.size), same: new Map() }));
    lastIt = it;
    lastCache = cache.byTerm;
    lastSame = cache.same;
  }
  return (lastCache[i] ??= keptReading(it, readTermTitle(it, i)));
}

/**
 * One object per distinct reading, shared by the terms that read alike (issue 28, the service's
 * RSS): the Index's 80,114 titles read as 23,747 readings ("left", "right", "with", "acute" under
 * many terms), and a reading kept per term was ~220 bytes of the thread's heap. Readings are never
 * changed once kept.
 */
function keptReading(it: IndexTabular, reading: TitleReading): KeptReading {
  const key = readingKey(reading);
  let kept = lastSame.get(key);
  if (!kept) lastSame.set(key, (kept = compact(it, reading)));
  return kept;
}

function readingKey(reading: TitleReading): string {
  let key = reading.connector;
  for (const alt of reading.alts) key += `|${alt.join(' ')}`;
  return key;
}

/** Term i's title read (readTitle), its words the Index left in its nonessential modifier taken back (titleTextOf). */
function readTermTitle(it: IndexTabular, i: number): TitleReading {
  const main = it.level[i] === 0;
  const coded = it.codeOf(i) !== '';
  return readTitle(
    titleTextOf(it, i, (t) => readTitle(t, main, coded).alts.length === 0),
    main,
    coded,
  );
}

/**
 * A reading as the thread keeps it: its arrays copied to their exact length. Arrays built by
 * `push`, `filter` or `flatMap` reserve room for 17 elements (~190 bytes each); a thread keeps one
 * reading per term it has read (~18,500 for the 50 KB note, ~80,000 at most), so the copies hold
 * ~4.5 MB less a thread there (issue 28, the service's RSS). With the numbers of its stems, so the
 * lookup finds them in a sentence and in the note by number rather than by name.
 */
function compact(it: IndexTabular, reading: TitleReading): KeptReading {
  const n = stemNumbers(it);
  let size = 0;
  for (const alt of reading.alts) size += alt.length;
  const ids = new Array<number>(size);
  let k = 0;
  for (const alt of reading.alts) for (const stem of alt) ids[k++] = numbered(n, stem);
  return { alts: reading.alts.map((a) => a.slice()), connector: reading.connector, ids };
}

const mainIndexes = new WeakMap<IndexTabular, { byStems: Map<string, number[]>; maxLen: number }>();

/** Main terms keyed by the stems of each of their names ("stem stem"), built once per Index. */
export function mainTermsByStems(it: IndexTabular): { byStems: Map<string, number[]>; maxLen: number } {
  let idx = mainIndexes.get(it);
  if (idx) return idx;
  idx = { byStems: new Map(), maxLen: 1 };
  for (const [name, terms] of it.mainNames()) {
    const stems = stemsOf(name.replace(/\([^)]*\)/g, ' '));
    if (stems.length === 0 || stems.length > 4) continue;
    const key = stems.join(' ');
    const list = idx.byStems.get(key) ?? [];
    for (const t of terms) if (!list.includes(t)) list.push(t);
    idx.byStems.set(key, list);
    idx.maxLen = Math.max(idx.maxLen, stems.length);
  }
  // A one-word main term written as two words ("Coldsore" as "cold sore", "Heartburn" as "heart
  // burn"): both halves are Index main terms themselves.
  for (const [name, terms] of it.mainNames()) {
    if (!/^[a-z]{8,}$/.test(name)) continue;
    for (let k = 4; k <= name.length - 4; k++) {
      const [a, b] = [name.slice(0, k), name.slice(k)];
      if (!it.mainTerms(a).length || !it.mainTerms(b).length) continue;
      const key = [...stemsOf(a), ...stemsOf(b)].join(' ');
      if (key.split(' ').length !== 2 || idx.byStems.has(key)) continue;
      idx.byStems.set(key, [...terms]);
      idx.maxLen = Math.max(idx.maxLen, 2);
    }
  }
  // A main term with a prefix written as a word of its own ("Postconcussional syndrome" as
  // "post-concussional syndrome"): the note's hyphen splits the word the Index writes whole.
  for (const [name, terms] of it.mainNames()) {
    const key = hyphenatedKey(name);
    if (!key || idx.byStems.has(key)) continue;
    idx.byStems.set(key, [...terms]);
    idx.maxLen = Math.max(idx.maxLen, key.split(' ').length);
  }
  // Each thread keeps these: lists at their exact length (one built by `push` reserves 17 slots).
  for (const [key, list] of idx.byStems) idx.byStems.set(key, list.slice());
  mainIndexes.set(it, idx);
  return idx;
}

const PREFIXES = /^(post|pre|non|anti|peri|para|sub|intra|inter|extra|hyper|hypo|pseudo|retro|trans)([a-z]{5,})$/;

/** The stems of a main term as a note writes it with its prefix split off by a hyphen, or undefined. */
function hyphenatedKey(name: string): string | undefined {
  const words = name
    .replace(/\([^)]*\)/g, ' ')
    .trim()
    .split(/\s+/);
  const m = PREFIXES.exec(words[0]);
  if (!m) return undefined;
  const stems = stemsOf([m[1], m[2], ...words.slice(1)].join(' '));
  return stems.length >= 2 && stems.length <= 4 ? stems.join(' ') : undefined;
}

/**
 * Index title stems by number, read as titles are read: what the lookup tests most often (the
 * first stem of a subterm's one title) becomes a number to look up in an array, without reading
 * the title. One number per stem of the Index (~14,000) and one per term.
 */
export interface StemNumbers {
  ids: Map<string, number>;
  /** the same by the stem's thread-wide number (text-normalize's stemNumber): -1 for a stem without one here */
  byNumber: Int32Array;
  /** per term: the number of the first stem of its one title, or UNREAD, SEVERAL (titles), NOTHING (a title stating nothing) */
  first: Int32Array;
  /** per term, once `first` is read: 1 when it has one title and no connector ("with", "due to", "without") of its own */
  plain: Uint8Array;
}
export const UNREAD = -1;
export const SEVERAL = -2;
export const NOTHING = -3;

const numbers = new WeakMap<IndexTabular, StemNumbers>();
let lastNumbersIt: IndexTabular | undefined;
let lastNumbers: StemNumbers | undefined;

export function stemNumbers(it: IndexTabular): StemNumbers {
  if (it === lastNumbersIt) return lastNumbers!;
  let n = numbers.get(it);
  if (!n)
    numbers.set(
      it,
      (n = { ids: new Map(), byNumber: new Int32Array(0), first: new Int32Array(it.size).fill(UNREAD), plain: new Uint8Array(it.size) }),
    );
  lastNumbersIt = it;
  lastNumbers = n;
  return n;
}

/** The number of term i's first title stem when it has one title (else SEVERAL or NOTHING). */
export function firstStemOf(it: IndexTabular, i: number): number {
  const n = stemNumbers(it);
  let f = n.first[i];
  if (f === UNREAD) {
    const { alts, connector } = readingOf(it, i);
    n.plain[i] = alts.length === 1 && connector === '' ? 1 : 0;
    if (alts.length === 0) f = NOTHING;
    else if (alts.length > 1) f = SEVERAL;
    else f = numbered(n, alts[0][0]);
    n.first[i] = f;
  }
  return f;
}

const severalFirsts = new WeakMap<IndexTabular, Map<number, Int32Array>>();
let lastFirstsIt: IndexTabular | undefined;
let lastFirsts = new Map<number, Int32Array>();

/** The numbers of the first stems of term i's titles, when it has several (firstStemOf is SEVERAL), read once per term. */
export function firstStemsOf(it: IndexTabular, i: number): Int32Array {
  // (The lookup asks this of the same Index thousands of times a note: its cache is kept at hand.)
  if (it !== lastFirstsIt) {
    let found = severalFirsts.get(it);
    if (!found) severalFirsts.set(it, (found = new Map()));
    lastFirstsIt = it;
    lastFirsts = found;
  }
  const cache = lastFirsts;
  let out = cache.get(i);
  if (!out) {
    const n = stemNumbers(it);
    const { alts } = readingOf(it, i);
    out = new Int32Array(alts.length);
    for (let k = 0; k < alts.length; k++) out[k] = numbered(n, alts[k][0]);
    cache.set(i, out);
  }
  return out;
}

/** The stem's number here (stemNumbers), numbering it if it has none. */
export function stemIdOf(it: IndexTabular, stem: string): number {
  return numbered(stemNumbers(it), stem);
}

/** The stem's number here, numbering it if it has none. */
function numbered(n: StemNumbers, stem: string): number {
  let f = n.ids.get(stem);
  if (f === undefined) {
    n.ids.set(stem, (f = n.ids.size));
    const k = stemNumber(stem);
    if (k >= n.byNumber.length) {
      const grown = new Int32Array(Math.max(k + 1, stemNumberCount(), 2 * n.byNumber.length)).fill(-1);
      grown.set(n.byNumber);
      n.byNumber = grown;
    }
    n.byNumber[k] = f;
  }
  return f;
}

// Term codes as numbers, read once per term: the lookup asks whether a term has a code, and
// whether two codes share their first four characters, tens of thousands of times a note, and
// IndexTabular.codeOf makes a new string each time.
const UNREAD_KEY = 0x7fffffff;
/** a code that does not pack (no character to pack, or one past ASCII): compared as strings */
const ODD_KEY = -1;
const codeKeys = new WeakMap<IndexTabular, Int32Array>();
let lastKeysIt: IndexTabular | undefined;
let lastKeys: Int32Array = new Int32Array(0);

/**
 * Term i's code as a number: 0 when it has none, else its first four characters (dots and
 * dashes aside) one byte each (ASCII, so never UNREAD_KEY), so two codes with the same key have the same first four
 * characters ("M25.4-" and "M25.46-" do, "M25" and "M25.4" do not); ODD_KEY for a code that does not pack.
 */
export function codeKeyOf(it: IndexTabular, i: number): number {
  if (it !== lastKeysIt) {
    let keys = codeKeys.get(it);
    if (!keys) codeKeys.set(it, (keys = new Int32Array(it.size).fill(UNREAD_KEY)));
    lastKeysIt = it;
    lastKeys = keys;
  }
  let k = lastKeys[i];
  if (k === UNREAD_KEY) lastKeys[i] = k = packFour(it.codeOf(i));
  return k;
}

function packFour(code: string): number {
  if (code === '') return 0;
  let v = 0;
  let n = 0;
  for (let i = 0; i < code.length && n < 4; i++) {
    const c = code.charCodeAt(i);
    if (c === 0x2e || c === 0x2d) continue; // . -
    if (c === 0 || c > 0x7e) return ODD_KEY;
    v = v * 256 + c;
    n++;
  }
  // Fewer than four characters: the missing places stay 0, as a code that ends there.
  for (; n < 4; n++) v *= 256;
  return v === 0 ? ODD_KEY : v;
}

/** Whether terms a and b (with keys ka, kb, both coded) have codes with the same first four characters, dots and dashes aside. */
export function sameFourOf(it: IndexTabular, a: number, ka: number, b: number, kb: number): boolean {
  if (ka !== ODD_KEY && kb !== ODD_KEY) return ka === kb;
  return sameFour(it.codeOf(a), it.codeOf(b));
}

/** Whether two Index codes have the same first four characters, dots and dashes aside ("M25.4-", "M25.46-"). */
export function sameFour(a: string, b: string): boolean {
  let i = 0;
  let j = 0;
  for (let n = 0; n < 4; n++, i++, j++) {
    while (i < a.length && (a[i] === '.' || a[i] === '-')) i++;
    while (j < b.length && (b[j] === '.' || b[j] === '-')) j++;
    if (i >= a.length || j >= b.length) return i >= a.length && j >= b.length;
    if (a.charCodeAt(i) !== b.charCodeAt(j)) return false;
  }
  return true;
}

const equivalents = new WeakMap<IndexTabular, Map<string, readonly string[]>>();

/**
 * Words the Alphabetic Index itself reads as another subterm of the same main term, wherever it
 * says so: "Abrasion, calf, see Abrasion, leg (lower)", "Contusion, shin, see Contusion, leg". A
 * one-word subterm that is no main term of its own, sent to one and the same sibling at least
 * three times and never elsewhere, states that sibling's words (with its nonessential modifiers)
 * under any main term: "pain in the calf" is Pain, limb, lower, lower leg. Stems, built once per Index.
 */
export function siteEquivalents(it: IndexTabular): ReadonlyMap<string, readonly string[]> {
  let out = equivalents.get(it);
  if (out) return out;
  const targets = new Map<string, Map<string, number>>();
  const extra = new Map<string, string>();
  let main = 0;
  for (let i = 0; i < it.size; i++) {
    if (it.level[i] === 0) {
      main = i;
      continue;
    }
    const see = it.seeOf(i);
    if (!see || it.codeOf(i)) continue;
    const parts = see.split(/,\s*/);
    const from = it.titleOf(i).toLowerCase();
    if (parts.length !== 2 || /[\s(]/.test(from) || parts[0].toLowerCase() !== it.titleOf(main).split(',')[0].toLowerCase()) continue;
    const to = parts[1].toLowerCase();
    if (to === from) continue;
    const counts = targets.get(from) ?? new Map<string, number>();
    counts.set(to, (counts.get(to) ?? 0) + 1);
    targets.set(from, counts);
    const target = it.resolvePath(see);
    // One nonessential word ("leg (lower)") is part of the site; a list of them ("(except toe(s) alone)") is not.
    const nemod = target === undefined ? '' : it.nemodOf(target).replace(/[()]/g, ' ').trim();
    if (/^[a-z]{3,}$/.test(nemod) && !extra.has(to)) extra.set(to, nemod);
  }
  // The nonessential word is part of the site when the Index names the two together ("lower leg").
  const titles = new Set<string>();
  for (let i = 0; i < it.size; i++) if (it.level[i] > 0) titles.add(it.titleOf(i).toLowerCase());
  out = new Map();
  for (const [from, counts] of targets) {
    if (counts.size !== 1 || it.mainTerms(from).length) continue;
    const [[to, n]] = counts;
    if (n < 3) continue;
    const nemod = extra.get(to) ?? '';
    const stems = stemsOf(titles.has(`${nemod} ${to}`) ? `${to} ${nemod}` : to);
    const own = stemsOf(from);
    if (own.length === 1 && stems.length) out.set(own[0], stems);
  }
  equivalents.set(it, out);
  return out;
}

const numberedEquivalents = new WeakMap<IndexTabular, Int32Array>();

/**
 * siteEquivalents by number (stemNumbers), numbered on first use and read once per Index: per
 * site, its number, how many stems it states, and their numbers, one site after another.
 */
export function siteEquivalentIds(it: IndexTabular): Int32Array {
  let out = numberedEquivalents.get(it);
  if (out) return out;
  const list: number[] = [];
  for (const [site, as] of siteEquivalents(it)) {
    list.push(stemIdOf(it, site), as.length);
    for (const s of as) list.push(stemIdOf(it, s));
  }
  numberedEquivalents.set(it, (out = Int32Array.from(list)));
  return out;
}

const conditionTitles = new WeakMap<IndexTabular, Int8Array>();

/**
 * Whether term i's title names a condition of its own: a run of its words is an Index main term
 * ("in pregnancy", "due to alcohol"), not a state of the condition itself ("in remission", "in
 * situ"). Guideline I.A.15 links the first kind from anywhere in the note; the second must be
 * stated with the condition.
 */
export function namesCondition(it: IndexTabular, i: number): boolean {
  let known = conditionTitles.get(it);
  if (!known) conditionTitles.set(it, (known = new Int8Array(it.size)));
  if (known[i] === 0) {
    const { byStems, maxLen } = mainTermsByStems(it);
    const named = readingOf(it, i).alts.some((alt) => {
      for (let a = 0; a < alt.length; a++)
        for (let b = a + 1; b <= Math.min(alt.length, a + maxLen); b++) if (byStems.has(alt.slice(a, b).join(' '))) return true;
      return false;
    });
    known[i] = named ? 1 : -1;
  }
  return known[i] === 1;
}
