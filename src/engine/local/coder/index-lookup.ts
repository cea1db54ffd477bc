import type { CodeTable } from '../../../terminology/code-table.js';
import type { IndexTabular } from '../../../terminology/index-tabular.js';
import { stemNumber, wordStems } from '../../../terminology/text-normalize.js';
import type { Assertion } from './assertions.js';
import { acuityApart } from './acuity-pairs.js';
import { completeCode, mayHaveNewer, newerFit, type Stated } from './complete-code.js';
import {
  codeKeyOf,
  firstStemOf,
  firstStemsOf,
  mainTermsByStems,
  namesCondition,
  NOTHING,
  SEVERAL,
  readingOf,
  siteEquivalentIds,
  siteEquivalents,
  stemIdOf,
  stemNumbers,
  type KeptReading,
  type TitleReading,
} from './index-terms.js';
import { nounFormsOf } from './noun-forms.js';
import { siteParentOf } from './site-parent.js';
import { sideInReach, sideOnlyTitle, titleSide, trailingSide } from './stated-side.js';
import { forEachStemPhrase, newMention, type Mention, type SentenceStems } from './mention.js';
import { clausesOf, isFiller, Near, Occurrences, SentenceSlots } from './mention-reach.js';
import { noteStamp, PerTerm } from './per-term.js';
import { CODED, INFO_SHIFT, KID_SIZE, plainLevel, SEVERAL_PLAIN, SKIPPABLE, subtermLists } from './subterm-lists.js';

/**
 * The note as the Index lookup reads it: stems stated anywhere (for "with"), and the encounter.
 * A class, not an object literal: V8 gives a literal made once per note its boilerplate on the
 * second note, which widens the types of its fields and deoptimizes every optimized function that
 * reads them (descend, indexMentions, matchTerm...: the first coding after the warm-up recompiled
 * them all).
 */
export class IndexNote {
  /** the note's stems by name, made on first use (noteSets) */
  sets: NoteSets | undefined = undefined;

  constructor(
    readonly it: IndexTabular,
    readonly table: CodeTable,
    readonly read: ReadonlyArray<{ st: SentenceStems; assertions: readonly Assertion[] }>,
    /** stems that complete a code by default: the encounter (7th character), closed, displaced */
    readonly defaults: readonly string[],
    /** per term, the subterms this note's stems can reach, found on first use */
    readonly reachable: PerTerm,
    /** per subterm, the subterms below it that a skipped level may lead to (skipsOf), found with its parent's reachable list */
    readonly skips: PerTerm,
    /**
     * Stems numbered when the note was read (stemNumbers): `mark` holds which of them the note
     * states (STATED), and as present (PRESENT). A stem numbered since is read by name (noteSets).
     */
    readonly known: number,
    readonly mark: Uint8Array,
  ) {}
}

/**
 * Every stem of the note and the sides it implies (a subterm none of whose titles starts with
 * one is never read), and the stems it states as present anywhere (guideline I.A.15: "with" needs
 * no link stated); site equivalents added to both.
 */
interface NoteSets {
  stated: ReadonlySet<string>;
  present: ReadonlySet<string>;
}

const STATED = 1;
const PRESENT = 3;

/** The note as the Index lookup reads it, from its sentences' stems and assertions. */
export function indexNoteOf(
  it: IndexTabular,
  table: CodeTable,
  read: ReadonlyArray<{ st: SentenceStems; assertions: readonly Assertion[] }>,
  defaults: readonly string[],
): IndexNote {
  // (The stems marked by number below are numbered first.)
  const right = stemIdOf(it, RIGHT);
  const left = stemIdOf(it, LEFT);
  const both = stemIdOf(it, BOTH);
  const unilateral = stemIdOf(it, UNILATERAL);
  const bilateral = stemIdOf(it, BILATERAL);
  const sites = siteEquivalentIds(it);
  // (Indexed loops: this runs once a note, mostly unoptimized, where a for-of makes an object per step.)
  for (let r = 0; r < read.length; r++) {
    const { st } = read[r];
    for (let k = 0; k < st.stems.length; k++) {
      const forms = nounFormsOf(table, st.stems[k], st.numbers[k]);
      for (let j = 0; j < forms.length; j++) stemIdOf(it, forms[j]);
    }
  }
  const { ids, byNumber } = stemNumbers(it);
  const mark = new Uint8Array(ids.size);
  for (let r = 0; r < read.length; r++) {
    const { st, assertions } = read[r];
    const { stems, numbers, from } = st;
    for (let k = 0; k < stems.length; k++) {
      const n = numbers[k];
      const id = n >= 0 ? (n < byNumber.length ? byNumber[n] : -1) : (ids.get(stems[k]) ?? -1);
      const as = assertions[from[k]] === 'present' ? PRESENT : STATED;
      if (id >= 0) mark[id] |= as;
      const forms = nounFormsOf(table, stems[k], n);
      for (let j = 0; j < forms.length; j++) mark[ids.get(forms[j])!] |= as;
    }
  }
  if (mark[right] !== 0 || mark[left] !== 0) mark[unilateral] |= STATED;
  if (mark[both] !== 0) mark[bilateral] |= STATED;
  for (let k = 0; k < sites.length; k += 2 + sites[k + 1]) {
    const at = mark[sites[k]];
    if (at === 0) continue;
    for (let j = k + 2; j < k + 2 + sites[k + 1]; j++) mark[sites[j]] |= at;
  }
  const stamp = noteStamp(it.size);
  return new IndexNote(it, table, read, defaults, new PerTerm(stamp, 0), new PerTerm(stamp, 1), ids.size, mark);
}

/** The note's stems by name (NoteSets), made on first use: only a stem numbered after the note was read is looked up so. */
function noteSets(note: IndexNote): NoteSets {
  if (note.sets) return note.sets;
  const present = new Set<string>();
  const stated = new Set<string>();
  for (const { st, assertions } of note.read) {
    st.stems.forEach((s, k) => {
      if (assertions[st.from[k]] === 'present') present.add(s);
      stated.add(s);
    });
  }
  if (stated.has(RIGHT) || stated.has(LEFT)) stated.add(UNILATERAL);
  if (stated.has(BOTH)) stated.add(BILATERAL);
  for (const [site, as] of siteEquivalents(note.it)) {
    if (!stated.has(site)) continue;
    for (const s of as) stated.add(s);
    if (present.has(site)) for (const s of as) present.add(s);
  }
  return (note.sets = { stated, present });
}

/** Whether the note states `stem` (numbered `id`, stemNumbers) as present anywhere. */
function presentInNote(note: IndexNote, id: number, stem: string): boolean {
  return id < note.known ? note.mark[id] === PRESENT : noteSets(note).present.has(stem);
}

/**
 * A path down the Index. A class with every field set: object literals of several shapes and
 * spread copies made this one kind of object several hidden classes, and every function reading
 * a path deoptimized ("wrong map") while the first codings tiered up.
 */
class Path {
  constructor(
    readonly term: number,
    public score: number,
    /** word positions of the sentence that the path's titles matched */
    public words: number[],
    /** the path used a "with" subterm (a combination code) */
    readonly combination: boolean,
    /** subterms the note states whole (no level skipped, no word of a title missing) */
    public exact: number,
    /** a level was skipped or a title read without one of its words */
    readonly loose: boolean,
    /** word positions a "without" subterm read as denied ("without aura", "no bleeding") */
    readonly denied: number[] | undefined,
    /** the path followed a `see` */
    readonly via: boolean,
  ) {}

  /** The same path read on at another term (a `see` target, a "without" subterm). */
  at(term: number, via: boolean): Path {
    return new Path(term, this.score, this.words, this.combination, this.exact, this.loose, this.denied, via);
  }
}

const NONE: ReadonlySet<string> = new Set();
const MAX_SEE_HOPS = 2;
// Reasons for an encounter (examinations, screening, tests, aftercare, fitting of devices): the
// visit's purpose, which guideline rules code from the note as a whole, never a word of a sentence.
const ENCOUNTER_REASON = /^Z(0[0-9]|1[0-3]|4[0-9]|5[0-3])/;
// Words of a completed title the note need not state for the code to be a firm reading.
const NEUTRAL_TITLE = new Set([
  'unspecifi',
  'other',
  'nec',
  'current',
  'injuri',
  'encount',
  'elsewher',
  'classifi',
  'specifi',
  'site',
  'without',
  'complic',
]);
const [RIGHT, LEFT, BOTH, UNILATERAL, BILATERAL] = ['right', 'left', 'both', 'unilateral', 'bilateral'].map((w) => wordStems(w)[0]);
const [UNILATERAL_NUMBER, BILATERAL_NUMBER] = [stemNumber(UNILATERAL), stemNumber(BILATERAL)];

/**
 * Codes one sentence by the Alphabetic Index, as a coder does: each main term the sentence states
 * (by its stems), then down its subterms by the words the sentence states (site, side, acuity,
 * cause; "with" per I.A.15 from anywhere in the note; nonessential modifiers never required),
 * following `see`, taking the Index's default (the subterm that needs no word, or the term's own
 * code) when nothing more is stated; then the code is completed in the table in force (side, 7th
 * character, a FY2026 child of an expanded code).
 */
export function indexMentions(
  note: IndexNote,
  st: SentenceStems,
  lower: readonly string[],
  assertions: readonly Assertion[],
  si: number,
  window: number,
): Mention[] {
  const { it } = note;
  const { byStems, maxLen } = mainTermsByStems(it);
  const sites = siteEquivalents(it);
  const clause = clausesOf(lower);
  // Each stem of the sentence (its slot, in the order first stated), and each occurrence of a
  // stem (its slot and word), in word order.
  const slots = SentenceSlots.ready();
  const known = stemNumbers(it).ids.size;
  const occurrences = Occurrences.ready(2 * st.stems.length);
  let negatedAny = false;
  // (Made for a sentence that denies a word: most deny none.)
  let denials: Set<string> | undefined;
  for (let k = 0; k < st.stems.length; k++) {
    const stem = st.stems[k];
    const w = st.from[k];
    const denied = assertions[w] === 'negated';
    if (denied) {
      (denials ??= new Set()).add(stem);
      negatedAny = true;
    }
    put(it, slots, occurrences, stem, st.numbers[k], w, denied);
    // Laterality in words: a side is one side of a pair; "both" is bilateral (I.B.13).
    if (stem === RIGHT || stem === LEFT) put(it, slots, occurrences, UNILATERAL, UNILATERAL_NUMBER, w, denied);
    if (stem === BOTH) put(it, slots, occurrences, BILATERAL, BILATERAL_NUMBER, w, denied);
    // A site the Index reads as another ("calf": leg, lower).
    const as = sites.get(stem);
    if (as) for (const s of as) put(it, slots, occurrences, s, stemNumber(s), w, denied);
    // An adjective the Index names by its noun ("tibial": Fracture, tibia).
    const forms = nounFormsOf(note.table, stem, st.numbers[k]);
    for (let j = 0; j < forms.length; j++) put(it, slots, occurrences, forms[j], stemNumber(forms[j]), w, denied);
  }
  // A word the sentence denies never qualifies a condition it asserts ("reflux with esophagitis,
  // no bleeding" is not "with bleeding"); it answers a "without" subterm instead. A denied
  // condition keeps every word of its sentence (its code is discarded as negated whatever it is).
  const negated: ReadonlySet<string> = denials ?? NONE;
  const out: Mention[] = [];
  let taken: Set<number> | undefined;
  const inTabular = inTabularOf(it);
  forEachStemPhrase(st, byStems, maxLen, (mains, start, end, len) => {
    const anchor = wordRange(start, end);
    const asserted = assertions[start] !== 'negated';
    const where = Near.of(
      slots,
      slots.size,
      occurrences,
      clause,
      start,
      end,
      window,
      numberedSlots,
      known,
      asserted,
      asserted && negatedAny,
    );
    let best: Path | undefined;
    let bestMain = -1;
    for (let k = 0; k < mains.length; k++) {
      const main = mains[k];
      const q = qualifierWords(it, where, main, start, end);
      const from = new Path(main, len, anchor, false, 0, false, undefined, false);
      // (The qualifier stated is a level of the path stated whole.)
      if (q.length) {
        from.score = len + q.length;
        from.words = anchor.concat(q);
        from.exact = 1;
      }
      const path = descend(note, where, main, from, 0);
      // Of two main terms that read the sentence as well, the one that names the other by "see
      // also" is the entry, the other its alternative ("Fracture, traumatic (see also Fracture,
      // pathological)": a fracture not called pathological is traumatic).
      if (path && (!best || path.score > best.score || (path.score === best.score && seesAlso(it, main, bestMain, slots)))) {
        best = path;
        bestMain = main;
      }
    }
    if (!best) return;
    // A main term alone is what the titles and names already read; the Index adds its subterms,
    // or a code the table added after the Index (below).
    const code = codeOf(note, where, best, 0);
    if (code === undefined) return;
    // (Words read past a main term's "see" count: "Scald - see Burn" read with "hand, first degree".)
    const mainOnly = code.path.words.length <= anchor.length;
    // A main term of one word alone names the condition only by a code the table added after the
    // Index (below): known from the code's category, without completing it.
    // An Index code left to complete ("Myopia H52.1-", a code the table expanded) is completed by a side the note states.
    const open = !billableCode(note.table, code.code);
    if (mainOnly && len < 2 && !open && !mayHaveNewer(note.table, code.code, inTabular)) return;
    // The stems in reach and the defaults, read through the mention's reach (no set of them made),
    // and a side written after the condition beyond it ("..., both eyes").
    const trailing = open && !sideInReach(where) ? trailingSide(lower, highest(code.path.words), code.code) : undefined;
    const present = new InReachOrDefault(where, note.defaults, trailing?.stem);
    // (A side is no finding a "without" denies: "without macular edema, bilateral".)
    const stated: Stated = { present, negated: trailing && negated.has(trailing.stem) ? without(negated, trailing.stem) : negated };
    // The words of a path the Index sent the coder to complete its code ("Cellulitis, foot, see
    // Cellulitis, lower limb L03.11-": the lower limb's code, not the axilla's); the note did not state them.
    const completed = completeCode(
      note.table,
      siteParentOf(note.table, code.code),
      code.path.via ? { present: withPath(present, it, code.path.term), negated: stated.negated } : stated,
    );
    const newer = completed === undefined ? undefined : newerFit(note.table, completed, stated, inTabular);
    // A main term of two words or more ("cold sore") names the condition on its own; one word,
    // with the side that completes its code ("hyperopia OD": H52.01).
    const side = mainOnly && open && completed !== undefined ? sideCompleted(note.table, completed, present) : undefined;
    const sided = side !== undefined;
    if (mainOnly && newer === undefined && len < 2 && !sided) return;
    const index = newer ?? completed;
    if (index === undefined || taken?.has(index) || ENCOUNTER_REASON.test(note.table.codeAt(index))) return;
    (taken ??= new Set()).add(index);
    // The words the completed title states too ("right", "knee" of "Effusion, right knee").
    const words = [...code.path.words];
    if (side !== undefined) words.push(side === trailing?.stem ? trailing.at : where.first(side));
    // Where the note states the code's own title: these words must lie together for a firm reading.
    const titleWords: number[] = [];
    let titleStated = true;
    for (const stem of titleStemsOf(note.table, index)) {
      // The encounter's words ("initial", "sequela") complete the code from the whole note: they
      // need not lie with the condition's words ("heat stroke while working, initial visit").
      if (NEUTRAL_TITLE.has(stem) || note.defaults.includes(stem)) continue;
      if (where.has(stem)) titleWords.push(where.first(stem));
      else if (!present.has(stem)) titleStated = false;
    }
    words.push(...titleWords);
    const together = titleWords.length >= 2 ? titleWords : words;
    // Firm: the note states the path or the title plainly, in a few words together (a long
    // sentence of a case report holds site words that belong to other findings).
    // A path stated whole is firm too when its own words lie together, though the title's words
    // do not ("Alcohol use disorder, mild, in early remission": "Alcohol abuse, in remission").
    const pathStated = !code.path.loose && (code.path.exact > 0 || (mainOnly && len >= 2));
    const firm =
      sided ||
      (compact(lower, together) &&
        ((titleStated && together.length >= 2) || (pathStated && (covers(lower, together) || adjacent(code.path.words))))) ||
      (pathStated && together !== words && compact(lower, words) && covers(lower, words)) ||
      (pathStated && sequelaOfInjury(note.table, index, lower)) ||
      // An injury's site named as one phrase with it, three words or more ending with the main
      // term's, though a title the Index sends on by "see" lacks one of its words ("distal radius
      // fracture": Fracture, radius, distal end, see lower end; not "right middle lobe").
      (code.path.via === true &&
        completedInjury(note.table, index) &&
        adjacent(code.path.words) &&
        distinct(code.path.words) >= 3 &&
        highest(code.path.words) === end);
    out.push(
      newMention({
        code: index,
        sentence: si,
        start: lowest(words),
        end: highest(words),
        words: sortedDistinct(words),
        denied: code.path.denied,
        // (A reading that is not firm is dropped below: its path is never read.)
        indexPath: firm ? pathTitles(it, code.path.term) : undefined,
        indexTerm: code.path.term,
        titleStated,
        firm,
        source: 'index',
        weight: 3 * code.path.score,
        score: Math.min(1, code.path.score / 3),
      }),
    );
  });
  // Of two lookups over the same words, the one that states more of them; a reading that is not
  // firm is left to the titles and names (on CodiEsp's case reports such readings were right 1 in 4).
  return out
    .filter((m) => m.firm)
    .filter((m) => !out.some((o) => o !== m && o.words!.length > m.words!.length && m.words!.every((w) => o.words!.includes(w))));
}

// The sentence's stems by slot, numbered as the Index numbers them (stemNumbers) when first put, as
// numbered then: later numbers are read as stems. One buffer the thread reuses (one sentence is
// read at a time).
let numberedSlots = new Int32Array(64);

/** One occurrence of a stem at word w: its slot (numbered on first sight, numberSlot) and the word. */
function put(
  it: IndexTabular,
  slots: SentenceSlots,
  occurrences: Occurrences,
  stem: string,
  number: number,
  w: number,
  denied: boolean,
): void {
  const size = slots.size;
  const k = slots.put(stem);
  if (k === size) numberSlot(it, k, stem, number);
  occurrences.add(k, w, denied);
}

// The Index's Tabular test as a function, made once per Index (not per sentence).
let inTabularIt: IndexTabular | undefined;
let inTabularFn: (code: string) => boolean = () => false;
function inTabularOf(it: IndexTabular): (code: string) => boolean {
  if (it !== inTabularIt) {
    inTabularIt = it;
    inTabularFn = (c) => it.inTabular(c);
  }
  return inTabularFn;
}

function numberSlot(it: IndexTabular, k: number, stem: string, number: number): void {
  const { byNumber, ids } = stemNumbers(it);
  if (k >= numberedSlots.length) {
    const grown = new Int32Array(2 * numberedSlots.length);
    grown.set(numberedSlots);
    numberedSlots = grown;
  }
  // (A stem the note read unnumbered, -1 when the numbering was full, is looked up by name.)
  numberedSlots[k] = number < 0 ? (ids.get(stem) ?? -1) : number < byNumber.length ? byNumber[number] : -1;
}

/**
 * A sequela's injury code (7th character S, I.B.10): the late condition names the site it left
 * ("arthritis of the left ankle, sequela of a trimalleolar fracture"), so its words lie apart from
 * the injury's; a path the note states whole is firm all the same, when the sentence names the
 * sequela and its one side is the title's.
 */
function sequelaOfInjury(table: CodeTable, index: number, lower: readonly string[]): boolean {
  const code = table.codeAt(index);
  if (code.length !== 7 || !code.endsWith('S') || !/^[ST]/.test(code)) return false;
  // The sentence itself names the sequela, not only the note.
  if (!lower.some((w, i) => w === 'sequela' || w === 'sequelae' || (w === 'late' && /^effects?$/.test(lower[i + 1] ?? '')))) return false;
  const title = table.descriptionAt(index).toLowerCase();
  const side = (w: string) => lower.includes(w) === title.includes(w);
  return side('right') && side('left');
}

/** An injury code completed by its encounter (7th character, I.C.19.a): S or T, seven characters. */
const completedInjury = (table: CodeTable, index: number) => /^[ST].{6}$/.test(table.codeAt(index));

const titleStemCache = new WeakMap<CodeTable, Map<number, readonly string[]>>();

/** The stems of a code's title, read once per code (a note reaches the same codes again and again). */
function titleStemsOf(table: CodeTable, index: number): readonly string[] {
  let cache = titleStemCache.get(table);
  if (!cache) titleStemCache.set(table, (cache = new Map()));
  let out = cache.get(index);
  if (!out) {
    out = table
      .descriptionAt(index)
      .split(/[\s,]+/)
      .flatMap((w) => wordStems(w));
    if (cache.size < 20_000) cache.set(index, out);
  }
  return out;
}

/** What a mention's completion reads as stated: a stem in its reach, or a default of the note (encounter, closed, displaced). */
class InReachOrDefault {
  constructor(
    private readonly where: Near,
    private readonly defaults: readonly string[],
    private readonly side?: string,
  ) {}

  has(stem: string): boolean {
    return this.where.has(stem) || this.defaults.includes(stem) || stem === this.side;
  }
}

/** A set without one of its members, copied. */
function without(set: ReadonlySet<string>, member: string): ReadonlySet<string> {
  const out = new Set(set);
  out.delete(member);
  return out;
}

/** Whether an Index code ("H52.1-", "E11.329") is a billable code of the table in force. */
function billableCode(table: CodeTable, code: string): boolean {
  const i = code.endsWith('-') ? undefined : table.indexOf(code.replace('.', ''));
  return i !== undefined && table.billableAt(i);
}

/** The side a completed code's title states, when the note states it. */
function sideCompleted(table: CodeTable, index: number, present: InReachOrDefault): string | undefined {
  const side = titleSide(titleStemsOf(table, index));
  return side !== undefined && present.has(side) ? side : undefined;
}

// Words that open a clause of their own: "Sprain of the left ankle | after a fall playing soccer",
// "Laceration of the left forearm | from a kitchen knife", "Diverticulitis of the colon | without
// perforation or abscess" (what the condition is without).
const CLAUSE_OPENERS = new Set([
  'without',
  'after',
  'from',
  'following',
  'while',
  'whilst',
  'when',
  'since',
  'because',
  'during',
  'before',
  'until',
  'although',
]);

// (Regular expressions of the loops below made once: a literal is a new object each time it is read.)
const PHRASE_START = /^[,;:()]$/;
const PHRASE_END = /^[,;:().]$/;
const LETTER = /[a-z]/;
const CODE_MARKS = /[.-]/g;

/**
 * The reading states at least half of its phrase (the words between commas, or up to a word that
 * opens a clause, around it): a finding named, not a word of a narrative.
 */
function covers(lower: readonly string[], words: readonly number[]): boolean {
  let a = lowest(words);
  let b = highest(words);
  while (a > 0 && !PHRASE_START.test(lower[a - 1]) && !CLAUSE_OPENERS.has(lower[a]) && !clauseOfItsOwn(lower, a)) a--;
  while (b < lower.length - 1 && !PHRASE_END.test(lower[b + 1]) && !CLAUSE_OPENERS.has(lower[b + 1])) b++;
  let content = 0;
  for (let i = a; i <= b; i++) if (LETTER.test(lower[i]) && !isFiller(lower[i])) content++;
  return distinct(words) * 2 >= content;
}

// Verbs that state an injury (the Index's Fracture, Sprain, Strain, Dislocation, Laceration, Burn,
// Contusion); after "and" one opens a clause of its own ("fell off a ladder ... and broke his left wrist").
const INJURY_VERBS = new Set(
  'broke fractured sprained strained dislocated tore lacerated cut burned burnt bruised twisted injured'.split(' '),
);

/** "... and broke his wrist", "... and sprained her ankle": an injury's verb after "and" opens a clause of its own. */
function clauseOfItsOwn(lower: readonly string[], at: number): boolean {
  return lower[at - 1] === 'and' && INJURY_VERBS.has(lower[at]);
}

/** The word positions start..end, in an array of that length (one built by `push` reserves 17 slots). */
function wordRange(start: number, end: number): number[] {
  if (end === start) return [start];
  if (end === start + 1) return [start, end];
  const out = new Array<number>(end - start + 1);
  for (let w = start; w <= end; w++) out[w - start] = w;
  return out;
}

// Small lists of word positions read without a Set or a spread (Math.min(...x) of nothing is Infinity).
function lowest(words: readonly number[]): number {
  let m = Infinity;
  for (let k = 0; k < words.length; k++) if (words[k] < m) m = words[k];
  return m;
}

function highest(words: readonly number[]): number {
  let m = -Infinity;
  for (let k = 0; k < words.length; k++) if (words[k] > m) m = words[k];
  return m;
}

function distinct(words: readonly number[]): number {
  let n = 0;
  for (let k = 0; k < words.length; k++) if (words.indexOf(words[k]) === k) n++;
  return n;
}

/** The distinct word positions, in order (a few: sorted in place, without a Set or sort's work array). */
function sortedDistinct(words: readonly number[]): number[] {
  const out = words.slice();
  for (let i = 1; i < out.length; i++) {
    const v = out[i];
    let j = i - 1;
    for (; j >= 0 && out[j] > v; j--) out[j + 1] = out[j];
    out[j + 1] = v;
  }
  let n = 0;
  for (let i = 0; i < out.length; i++) if (n === 0 || out[i] !== out[n - 1]) out[n++] = out[i];
  out.length = n;
  return out;
}

/** A main term and its subterm stated as one phrase, word after word ("heat stroke"): a name, wherever it stands. */
function adjacent(words: readonly number[]): boolean {
  const set = sortedDistinct(words);
  return set.length >= 2 && set[set.length - 1] - set[0] === set.length - 1;
}

/** Words that lie together: at most one other word that says something between the first and the last. */
function compact(lower: readonly string[], words: readonly number[]): boolean {
  let others = 0;
  const last = highest(words);
  for (let i = lowest(words); i <= last; i++) if (!words.includes(i) && LETTER.test(lower[i]) && !isFiller(lower[i])) others++;
  return others <= 1;
}

function withPath(present: Stated['present'], it: IndexTabular, term: number): Stated['present'] {
  const path = pathStems(it, term);
  return { has: (stem) => present.has(stem) || path.includes(stem) };
}

const pathStemCache = new WeakMap<IndexTabular, Map<number, readonly string[]>>();

/** The stems of the subterm titles from the main term's first subterm down to term i ("lower limb"), read once per term. */
function pathStems(it: IndexTabular, i: number): readonly string[] {
  let cache = pathStemCache.get(it);
  if (!cache) pathStemCache.set(it, (cache = new Map()));
  let out = cache.get(i);
  if (!out) {
    out = [];
    for (let j = i, lv = it.level[i] + 1; j >= 0 && lv > 1; j--) {
      if (it.level[j] < lv) {
        for (const alt of readingOf(it, j).alts) if (alt.length) (out as string[]).push(...alt);
        lv = it.level[j];
      }
    }
    cache.set(i, out);
  }
  return out;
}

/** The titles from the main term down to term i: "Tear, torn > meniscus > medial". */
function pathTitles(it: IndexTabular, i: number): string {
  const out = [it.titleOf(i)];
  for (let j = i - 1, lv = it.level[i]; j >= 0 && lv > 0; j--) {
    if (it.level[j] < lv) {
      out.unshift(it.titleOf(j));
      lv = it.level[j];
    }
  }
  return out.join(' > ');
}

/** Whether main term `a` says "see also" main term `b`, and the sentence does not state `b`'s qualifier ("pathological"). */
function seesAlso(it: IndexTabular, a: number, b: number, stated: SentenceSlots): boolean {
  if (b < 0) return false;
  const also = mainNamesOf(it, a).also;
  const other = mainNamesOf(it, b);
  if (also === undefined || also !== other.title) return false;
  // The plain term ("Gout, gouty") is the entry before one its qualifier narrows ("Gout, chronic").
  if (other.qualifier.length === 0 && mainNamesOf(it, a).qualifier.length > 0) return false;
  for (const stem of other.qualifier) if (stated.has(stem)) return false;
  return true;
}

/**
 * Where the sentence states a main term's qualifier ("chronic" of "Gout, chronic", "pathological"
 * of "Fracture, pathological") in reach, outside the words that named it: read as a subterm's words are.
 */
function qualifierWords(it: IndexTabular, where: Near, main: number, start: number, end: number): readonly number[] {
  // (Most main terms have no qualifier, or none stated: no array is made for them.)
  let out: number[] | undefined;
  const { qualifier } = mainNamesOf(it, main);
  for (let k = 0; k < qualifier.length; k++) {
    const w = where.first(qualifier[k]);
    if (w >= 0 && (w < start || w > end) && !out?.includes(w)) (out ??= []).push(w);
  }
  return out ?? NO_WORDS;
}

const NO_WORDS: readonly number[] = [];

/** A main term's title and see also, read as seesAlso compares them (without brackets, lower case), and the stems of its title's qualifier. */
interface MainNames {
  title: string;
  /** none when the term has no see also */
  also: string | undefined;
  /** the stems of the title after its first comma part ("pathological" of "Fracture, pathological") */
  qualifier: readonly string[];
}

const mainNames = new WeakMap<IndexTabular, Map<number, MainNames>>();
const plainName = (s: string) => s.replace(/\s*\([^)]*\)/g, '').toLowerCase();

function mainNamesOf(it: IndexTabular, i: number): MainNames {
  let cache = mainNames.get(it);
  if (!cache) mainNames.set(it, (cache = new Map()));
  let out = cache.get(i);
  if (!out) {
    const also = it.seeAlsoOf(i);
    const title = plainName(it.titleOf(i));
    const [head, ...rest] = title.split(',').map((p) => p.trim());
    // ("gouty" of "Gout, gouty" is another name of the term, no qualifier.)
    const qualifier = rest
      .filter((p) => /\s/.test(p) || p.slice(0, 3) !== head.slice(0, 3))
      .join(' ')
      .split(/\s+/)
      .filter(Boolean)
      .flatMap((w) => wordStems(w));
    cache.set(i, (out = { title, also: also === '' ? undefined : plainName(also), qualifier }));
  }
  return out;
}

/** The deepest subterm path below `from` that the sentence states best. */
function descend(
  note: IndexNote,
  where: Near,
  term: number,
  from: Path,
  depth: number,
  inherited: TitleReading['connector'] = '',
): Path | undefined {
  const { it } = note;
  let best: Path = from;
  if (depth > 8) return best;
  // (Indexed loops and concat, not for-of and spreads: this runs tens of thousands of times a
  // note, often before it is optimized, when each iterator would be an object.)
  const reachable = reachableChildren(note, term);
  // (Read in place: a list added meanwhile may move the buffer, never this list in the one read here.)
  const children = reachable.items;
  const last = reachable.to(term);
  for (let c = reachable.from(term); c < last; c += 2) {
    const child = children[c];
    const info = children[c + 1];
    // Most subterms reached have plain titles whose first stems are out of reach: not stated,
    // known without reading the titles (what matchTerm would answer).
    if (!inherited) {
      const first = info >> INFO_SHIFT;
      if (first >= 0 && where.outOfReach(first)) {
        if ((info & SKIPPABLE) !== 0) best = skipLevel(note, where, term, child, from, depth, best);
        continue;
      }
      // Several plain titles ("Tear, torn"): matchTerm finds none, and a coded subterm's level may be skipped.
      if ((info & SEVERAL_PLAIN) !== 0 && allOutOfReach(where, firstStemsOf(it, child))) {
        if ((info & (CODED | SKIPPABLE)) === (CODED | SKIPPABLE)) best = skipLevel(note, where, term, child, from, depth, best);
        continue;
      }
    } else if (inherited !== 'without' && info >> INFO_SHIFT >= 0 && absent(note, where, info >> INFO_SHIFT)) {
      // A plain title below a bare "with" or "due to" whose first stem the note never states as
      // present and the mention does not reach: neither matchJoined nor matchStated reads it. A
      // coded class level below a bare "with" is skipped ("with, complication, intestinal obstruction").
      if (inherited === 'with' && (info & (CODED | SKIPPABLE)) === (CODED | SKIPPABLE))
        best = skipLevel(note, where, term, child, from, depth, best);
      continue;
    }
    const reading = readingOf(it, child);
    if (reading.alts.length === 0 && reading.connector) {
      // A bare "with", "due to", "without": its subterms carry the connector.
      const next = descend(note, where, child, from, depth + 1, reading.connector);
      if (next && next.score > best.score) best = next;
      continue;
    }
    const m = matchTerm(note, where, child, inherited);
    // A word states one level of the path: "hyperactivity" read for "Disorder, attention-deficit
    // hyperactivity" does not state its subterm "hyperactive" (F90.1) as well.
    if (m && m.score > 0 && !restated(it, term, child, m.words, from.words) && !acuityApart(it, term, child, m.words, where)) {
      const here = new Path(
        child,
        from.score + m.score,
        from.words.concat(m.words),
        from.combination || m.combination,
        from.exact + (m.loose ? 0 : 1),
        from.loose || m.loose,
        m.denied ? (from.denied ?? []).concat(m.words) : from.denied,
        from.via,
      );
      let next = descend(note, where, child, here, depth + 1);
      // A subterm that only says "see": its target's subterms count as its own ("Disease,
      // coronary (artery)" -> "Disease, heart, ischemic, atherosclerotic, with angina pectoris, unstable").
      if ((info & CODED) === 0 && depth < 6 && it.hasSee(child)) {
        const target = seeTarget(it, child);
        if (target !== undefined && target !== term) {
          const via = descend(note, where, target, here.at(target, true), depth + 2);
          if (via && (!next || via.score > next.score)) next = via;
        }
      }
      if (next && (next.score > best.score || (next.score === best.score && best !== from && nearer(next, best, from)))) best = next;
      continue;
    }
    // A "without X" subterm the note leaves X unstated in holds, and its own subterms refine it
    // ("Disorder, bipolar, current episode, depressed, without psychotic features, moderate").
    if (m === DEFAULT_MATCH && (reading.connector || inherited) === 'without' && it.end[child] > child + 1) {
      const next = descend(note, where, child, from.at(child, from.via), depth + 1);
      if (next && next.score > best.score) best = next;
      continue;
    }
    if (m || reading.connector || inherited || (info & CODED) === 0 || (info & SKIPPABLE) === 0) continue;
    best = skipLevel(note, where, term, child, from, depth, best);
  }
  return best;
}

/**
 * Whether a subterm only repeats words of the titles above it, read from note words the path
 * above already read: "Disorder, attention-deficit hyperactivity, hyperactive" from
 * "attention-deficit hyperactivity disorder". ("Pain, limb, lower, lower leg" from "calf", read
 * as "leg, lower", adds "leg".)
 */
function restated(it: IndexTabular, term: number, child: number, words: readonly number[], above: readonly number[]): boolean {
  if (words.length === 0) return false;
  for (let k = 0; k < words.length; k++) if (!above.includes(words[k])) return false;
  return restatesTitles(it, term, child);
}

/** Whether one of the child's titles holds only words of the titles above it. (Apart: a closure in restated would cost each call a context.) */
function restatesTitles(it: IndexTabular, term: number, child: number): boolean {
  const titles = pathStems(it, term);
  return readingOf(it, child).alts.some((alt) => alt.length > 0 && alt.every((s) => titles.includes(s)));
}

/**
 * Of two subterm paths that state as much, the one whose own words lie nearer the term they
 * refine: "type 2 diabetic with chronic kidney disease, stage 4" is "stage 4", not "stage 2".
 */
function nearer(a: Path, b: Path, from: Path): boolean {
  return distance(a, from) < distance(b, from);
}

/** How far a path's own words lie from the last word of the path it refines. */
function distance(p: Path, from: Path): number {
  let d = 0;
  for (let k = from.words.length; k < p.words.length; k++) d += Math.abs(p.words[k] - highest(from.words));
  return d;
}

/**
 * A level the note need not name ("Effusion, joint, knee" from "knee effusion"), when the
 * subterm below refines that level's code (M25.40 -> M25.46-), or, below a level without a code
 * of its own ("Disorder, depressive, recurrent, current episode, moderate"), stays in the category
 * of the term above it (F33.9 -> F33.1): one skip, at a cost.
 */
function skipLevel(note: IndexNote, where: Near, term: number, child: number, from: Path, depth: number, best: Path): Path {
  const skips = note.skips;
  // A level whose code is the term's own says nothing the term does not ("Diverticulitis K57.92,
  // intestine K57.92"): skipped, the path is as plain as the words below it (read once a subterm below is stated).
  let plain: boolean | undefined;
  const grandchildren = skips.items;
  const last = skips.to(child);
  for (let g = skips.from(child); g < last; g += 2) {
    const grandchild = grandchildren[g];
    const info = grandchildren[g + 1];
    if (
      info >> INFO_SHIFT >= 0
        ? where.outOfReach(info >> INFO_SHIFT)
        : (info & SEVERAL_PLAIN) !== 0 && allOutOfReach(where, firstStemsOf(note.it, grandchild))
    )
      continue;
    // A side qualifies the level above it: never read past a level the note does not name
    // ("myopia of both eyes" is not "Myopia, degenerative, bilateral").
    if (sideOnlyTitle(note.it.titleOf(grandchild))) continue;
    const m = matchTerm(note, where, grandchild);
    if (!m || m.score <= 0 || m.combination) continue;
    plain ??= plainLevel(note.it, term, child);
    const next = new Path(
      grandchild,
      from.score + m.score - 0.5,
      from.words.concat(m.words),
      from.combination,
      plain && !m.loose ? from.exact + 1 : from.exact,
      !plain || m.loose || from.loose,
      undefined,
      from.via,
    );
    if (next.score > best.score) best = descend(note, where, grandchild, next, depth + 2) ?? next;
  }
  return best;
}

/** Whether the stem numbered `id` is surely neither present in the note nor in the mention's reach. */
function absent(note: IndexNote, where: Near, id: number): boolean {
  return id < note.known && note.mark[id] !== PRESENT && where.outOfReach(id);
}

/** Whether every one of these stem numbers is surely out of the mention's reach. */
function allOutOfReach(where: Near, ids: Int32Array): boolean {
  for (let k = 0; k < ids.length; k++) if (!where.outOfReach(ids[k])) return false;
  return true;
}

/**
 * The subterms of `term` that can change a descent in this note, in order, each with its info
 * (infoOf, SKIPPABLE added): a title whose first stem the note states somewhere (what matchTerm
 * needs of every reading, "with" ones included), a coded subterm with a level below it that
 * skipLevel may read, and bare connectors and defaults. The others would be read and rejected
 * every time the term is reached. A subterm's skip list is found with it. Read from the Index's
 * subterm lists (SubtermLists), which hold what does not depend on the note.
 */
function reachableChildren(note: IndexNote, term: number): PerTerm {
  const lists = note.reachable;
  if (lists.has(term)) return lists;
  const all = subtermLists(note.it);
  const first = all.first(term);
  const last = all.last(term);
  let n = 0;
  for (let k = first; k < last; k += KID_SIZE) {
    const { kids } = all;
    const child = kids[k];
    const info = kids[k + 1];
    const skippable = kids[k + 3] > kids[k + 2] && skipsOf(note, child, kids[k + 2], kids[k + 3]);
    // (A coded subterm with a subterm below it that starts with a stem of the note: a "without"
    // subterm the note leaves unstated is descended, whatever the code below.)
    if (!startsInNote(note, child) && !((info & CODED) !== 0 && (skippable || startsAny(note, child)))) continue;
    if (n + 2 > reachScratch.length) reachScratch = grown(reachScratch);
    reachScratch[n++] = child;
    reachScratch[n++] = skippable ? info | SKIPPABLE : info;
  }
  lists.set(term, reachScratch, n);
  return lists;
}

/**
 * The subterms of `child` that skipLevel may read, in order, each with its info: of its skip
 * candidates (SubtermLists, skips[from..to)), those whose titles start with a stem of the note (or
 * state nothing). Whether there is one.
 */
function skipsOf(note: IndexNote, child: number, from: number, to: number): boolean {
  const { skips } = subtermLists(note.it);
  let n = 0;
  for (let k = from; k < to; k += 2) {
    if (!startsInNote(note, skips[k])) continue;
    if (n + 2 > skipScratch.length) skipScratch = grown(skipScratch);
    skipScratch[n++] = skips[k];
    skipScratch[n++] = skips[k + 1];
  }
  note.skips.set(child, skipScratch, n);
  return n > 0;
}

/** Whether a subterm of `term` starts with a stem of the note (or states nothing). */
function startsAny(note: IndexNote, term: number): boolean {
  const { it } = note;
  for (let child = term + 1; child < it.end[term]; child = it.end[child]) if (startsInNote(note, child)) return true;
  return false;
}

// Where a term's list is gathered before it is added to the note's lists (PerTerm): one buffer
// each, reused (skip lists are found while a reachable one is gathered).
let reachScratch = new Int32Array(256);
let skipScratch = new Int32Array(256);
const grown = (a: Int32Array) => {
  const out = new Int32Array(2 * a.length);
  out.set(a);
  return out;
};

function startsInNote(note: IndexNote, i: number): boolean {
  const f = firstStemOf(note.it, i);
  if (f === NOTHING) return true;
  // Titles whose first stems were numbered before the note was read: their marks say.
  if (f >= 0 && f < note.known) return note.mark[f] !== 0;
  if (f === SEVERAL) {
    const firsts = firstStemsOf(note.it, i);
    let marked = true;
    for (let k = 0; k < firsts.length; k++) {
      if (firsts[k] >= note.known) marked = false;
      else if (note.mark[firsts[k]] !== 0) return true;
    }
    if (marked) return false;
  }
  const { alts } = readingOf(note.it, i);
  if (alts.length === 0) return true;
  for (const alt of alts) if (noteSets(note).stated.has(alt[0])) return true;
  return false;
}

/** Whether the note states term i's title: its score (stems matched), 0 for a default, undefined if not. */
function matchTerm(note: IndexNote, where: Near, i: number, inherited: TitleReading['connector'] = ''): TermMatch | undefined {
  const r = readingOf(note.it, i);
  // A subterm of a bare "with" carries its connector.
  const connector = r.connector || inherited;
  if (r.alts.length === 0) return connector === 'with' || connector === 'due' ? undefined : DEFAULT_MATCH;
  // (No closures here: the lookup calls this for every subterm it reaches, and a closure would
  // cost every call a context.)
  if (connector === 'without') return anyAllPresent(note, r) ? undefined : (matchDenied(where, r.alts) ?? DEFAULT_MATCH);
  // "With" and "in"/"due to" a condition are read from anywhere in the note (I.A.15); "in
  // remission" is said of the condition itself, in its own words.
  const joined = connector === 'with' || (connector === 'due' && namesCondition(note.it, i));
  // Cheap reject first (most subterms a note reaches state none of their words): a title read
  // at all states its first word (below), so a sentence without it in reach skips the title.
  if (!joined && r.alts.length === 1 && !where.hasNumbered(firstStemOf(note.it, i), r.alts[0][0])) return undefined;
  return joined ? matchJoined(note, where, i, r) : matchStated(note, where, i, r);
}

/** A "with"/"due to" title: its words stated anywhere in the note (I.A.15). */
function matchJoined(note: IndexNote, where: Near, i: number, r: KeptReading): TermMatch | undefined {
  let best: TermMatch | undefined;
  const { ids } = r;
  let at = 0;
  for (const alt of r.alts) {
    const base = at;
    at += alt.length;
    let all = true;
    for (let k = 0; k < alt.length; k++)
      if (!presentInNote(note, ids[base + k], alt[k]) && !where.hasNumbered(ids[base + k], alt[k])) {
        all = false;
        break;
      }
    if (!all) continue;
    best = better(
      best,
      withNemods(note.it, where, i, new TermMatch(alt.length + 0.5, wordsInReach(where, alt, ids, base), true, false, false)),
    );
  }
  return best;
}

/** A title the sentence states in reach, whole or but for one word after the first. */
function matchStated(note: IndexNote, where: Near, i: number, r: KeptReading): TermMatch | undefined {
  let best: TermMatch | undefined;
  const { ids } = r;
  let at = 0;
  for (const alt of r.alts) {
    const base = at;
    at += alt.length;
    if (!where.hasNumbered(ids[base], alt[0])) continue;
    let stated = 0;
    for (let k = 0; k < alt.length; k++) if (where.hasNumbered(ids[base + k], alt[k])) stated++;
    // A title of several words may lack one ("angina pectoris" from "unstable angina"), at a cost.
    if (stated < alt.length && (alt.length < 2 || stated < alt.length - 1)) continue;
    const score = stated - (alt.length - stated) * 0.5;
    if (score <= 0) continue;
    const words = wordsInReach(where, alt, ids, base);
    best = better(best, withNemods(note.it, where, i, new TermMatch(score, words, false, stated < alt.length, false)));
  }
  return best;
}

/** The first position in reach of each stem of `alt` (numbered ids[base..]) that is in reach, in the title's order. */
function wordsInReach(where: Near, alt: readonly string[], ids: readonly number[], base: number): number[] {
  const words: number[] = [];
  for (let k = 0; k < alt.length; k++) {
    const w = where.firstNumbered(ids[base + k], alt[k]);
    if (w >= 0) words.push(w);
  }
  return words;
}

/** A "without" title whose words the sentence denies in reach ("migraine without aura"): stated, as the absence it names. */
function matchDenied(where: Near, alts: readonly string[][]): TermMatch | undefined {
  let best: TermMatch | undefined;
  for (const alt of alts) {
    const words = alt.map((s) => where.deniedFirst(s));
    if (words.some((w) => w < 0)) continue;
    best = better(best, new TermMatch(alt.length, words, false, false, true));
  }
  return best;
}

function anyAllPresent(note: IndexNote, r: KeptReading): boolean {
  let at = 0;
  for (const alt of r.alts) {
    let all = true;
    for (let k = 0; k < alt.length && all; k++) all = presentInNote(note, r.ids[at + k], alt[k]);
    if (all) return true;
    at += alt.length;
  }
  return false;
}

/** How a title is stated. A class with every field set (one hidden class: see Path). */
class TermMatch {
  constructor(
    public score: number,
    readonly words: number[],
    readonly combination: boolean,
    /** a title read without one of its words */
    readonly loose: boolean,
    /** the words are denied in the note, as a "without" title names them */
    readonly denied: boolean,
  ) {}
}

/** A title with nothing to state (a default): read, never changed (only a match with a score above 0 is extended). */
const DEFAULT_MATCH: Readonly<TermMatch> = new TermMatch(0, [], false, false, false);

const better = (best: TermMatch | undefined, cand: TermMatch) => (!best || cand.score > best.score ? cand : best);

/** Nonessential modifiers the note states support the term, never required: "(artery)". */
function withNemods(it: IndexTabular, where: Near, i: number, cand: TermMatch): TermMatch {
  const stems = nemodStems(it, i);
  for (let k = 0; k < stems.length; k++) {
    const s = stems[k];
    if (where.has(s)) {
      cand.score += 0.25;
      cand.words.push(where.first(s));
    }
  }
  return cand;
}

/** The code a path leads to: its own, its `see` target's, its default subterm's, or its subterms' common stem. */
function codeOf(note: IndexNote, where: Near, path: Path, hops: number): { code: string; path: Path } | undefined {
  const { it } = note;
  const t = path.term;
  if (codeKeyOf(it, t) !== 0) return { code: it.codeOf(t), path };
  if (hops < MAX_SEE_HOPS && it.hasSee(t)) {
    const target = seeTarget(it, t);
    if (target !== undefined) {
      const next = descend(note, where, target, path.at(target, true), it.level[target]) ?? path.at(target, true);
      return codeOf(note, where, next, hops + 1);
    }
  }
  // Below a term without a code, its default subterm or its subterms' common code, only when the
  // note has led two subterms deep ("Tear > meniscus > medial"): a coder does not guess from less.
  if (path.exact < 2) return undefined;
  return commonCodeOf(it, path);
}

/** Below a path's term without a code: its default subterm's code, or its subterms' common stem. */
function commonCodeOf(it: IndexTabular, path: Path): { code: string; path: Path } | undefined {
  // (Apart from codeOf, read for every phrase: a closure there would cost each call a context.)
  const children = it.children(path.term);
  for (const c of children) {
    const r = readingOf(it, c);
    if (r.alts.length === 0 && r.connector === '' && it.codeOf(c)) return { code: it.codeOf(c), path };
  }
  const codes = children.map((c) => it.codeOf(c)).filter(Boolean);
  if (codes.length < 2) return undefined;
  let prefix = codes[0].replace(CODE_MARKS, '');
  for (const c of codes) {
    const u = c.replace(CODE_MARKS, '');
    let n = 0;
    while (n < prefix.length && n < u.length && prefix[n] === u[n]) n++;
    prefix = prefix.slice(0, n);
  }
  return prefix.length >= 4 ? { code: prefix, path } : undefined;
}

const nemods = new WeakMap<IndexTabular, Map<number, string[]>>();
const NO_STEMS: readonly string[] = [];

/** Stems of term i's nonessential modifiers ("(artery) (vein)"), read on first use. */
function nemodStems(it: IndexTabular, i: number): readonly string[] {
  if (!it.hasNemod(i)) return NO_STEMS;
  let cache = nemods.get(it);
  if (!cache) nemods.set(it, (cache = new Map()));
  let out = cache.get(i);
  if (!out)
    cache.set(
      i,
      (out = it
        .nemodOf(i)
        .split(/[\s()]+/)
        .flatMap((w) => wordStems(w))),
    );
  return out;
}

const seeTargets = new WeakMap<IndexTabular, Map<number, number | undefined>>();

/**
 * The term that term i's `see` names (i has one), resolved on first use; none for a see that names
 * no term to read ("see Condition", "see category ...").
 */
function seeTarget(it: IndexTabular, i: number): number | undefined {
  let cache = seeTargets.get(it);
  if (!cache) seeTargets.set(it, (cache = new Map()));
  if (!cache.has(i)) {
    const see = it.seeOf(i);
    let main = i;
    while (main > 0 && it.level[main] > 0) main--;
    cache.set(i, /^(condition|category)\b/i.test(see) ? undefined : it.resolvePath(see.replace(/\s+by site$/i, ''), main));
  }
  return cache.get(i);
}
