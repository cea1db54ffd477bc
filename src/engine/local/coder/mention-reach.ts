/**
 * A sentence's stems as one Index mention reaches them: its clauses, the places of the words that
 * say something, the occurrences of its stems, and the stems in reach of the mention being read
 * (Near). In buffers the thread reuses: one sentence, and one mention of it, is read at a time.
 */

/** ; : ( ) . (clausesOf reads every word of the note) */
const isClauseBreak = (c: number) => c === 0x3b || c === 0x3a || c === 0x28 || c === 0x29 || c === 0x2e;

let clauses = new Int32Array(0);

/**
 * Clause number of each word: semicolons, colons and brackets end a clause (commas do not:
 * "Effusion, right knee"). In one buffer the thread reuses (one sentence is read at a time).
 */
export function clausesOf(lower: readonly string[]): Int32Array {
  if (clauses.length < lower.length) {
    clauses = new Int32Array(Math.max(lower.length, 2 * clauses.length));
    places = new Int32Array(clauses.length);
  }
  const out = clauses;
  let c = 0;
  let p = 0;
  for (let i = 0; i < lower.length; i++) {
    if (lower[i].length === 1 && isClauseBreak(lower[i].charCodeAt(0))) c++;
    out[i] = c;
    // A word that says nothing ("of the", a comma) does not count toward a window.
    if (!isFiller(lower[i]) && hasLetterOrDigit(lower[i])) p++;
    places[i] = p;
  }
  return out;
}

/** /[a-z0-9]/.test(word), without a regular expression (clausesOf reads every word of the note). */
function hasLetterOrDigit(word: string): boolean {
  for (let i = 0; i < word.length; i++) {
    const c = word.charCodeAt(i);
    if ((c >= 0x61 && c <= 0x7a) || (c >= 0x30 && c <= 0x39)) return true;
  }
  return false;
}

/** Per word of the sentence read last by clausesOf: how many words that say something precede it, itself included. */
let places = new Int32Array(0);

/**
 * The occurrences of a sentence's stems, in word order: each one's slot (its stem), word, and
 * whether the sentence denies it. In buffers the thread reuses (one sentence is read at a time).
 */
export class Occurrences {
  private static current = new Occurrences(64);
  slot: Int32Array;
  word: Int32Array;
  denied: Uint8Array;
  size = 0;

  private constructor(capacity: number) {
    this.slot = new Int32Array(capacity);
    this.word = new Int32Array(capacity);
    this.denied = new Uint8Array(capacity);
  }

  /** The thread's buffers, emptied, for at most `most` occurrences. */
  static ready(most: number): Occurrences {
    if (Occurrences.current.slot.length < most) Occurrences.current = new Occurrences(Math.max(most, 2 * Occurrences.current.slot.length));
    Occurrences.current.size = 0;
    return Occurrences.current;
  }

  add(slot: number, word: number, denied: boolean): void {
    this.slot[this.size] = slot;
    this.word[this.size] = word;
    this.denied[this.size] = denied ? 1 : 0;
    this.size++;
  }

  /** The first occurrence whose word has place `place` or a later one (places rise with the words). */
  firstFrom(place: number, places: Int32Array): number {
    let lo = 0;
    let hi = this.size;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (places[this.word[mid]] < place) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }
}

const MAX_STEMS = 1 << 15;

/**
 * The slot of each stem of the sentence being read (0, 1, ... in the order first put). One per
 * thread, reused: each stem keeps an id in a map that outlives the sentence, and a stem is in the
 * sentence when its id carries the sentence's generation (a new Map a sentence was ~0.5 MB a note
 * of garbage). Cleared whole past MAX_STEMS ids, so it stays small.
 */
export class SentenceSlots {
  private static current = new SentenceSlots();
  private readonly ids = new Map<string, number>();
  private generation = 0;
  private generationOf = new Int32Array(256);
  private slotOf = new Int32Array(256);
  size = 0;

  private constructor() {}

  /** The thread's slots, emptied for a new sentence. */
  static ready(): SentenceSlots {
    const s = SentenceSlots.current;
    s.size = 0;
    if (++s.generation >= 0x3fffffff || s.ids.size >= MAX_STEMS) {
      s.ids.clear();
      s.generationOf.fill(0);
      s.generation = 1;
    }
    return s;
  }

  /** The stem's slot in this sentence, or undefined. */
  get(stem: string): number | undefined {
    const id = this.ids.get(stem);
    return id !== undefined && this.generationOf[id] === this.generation ? this.slotOf[id] : undefined;
  }

  has(stem: string): boolean {
    return this.get(stem) !== undefined;
  }

  /** The stem's slot, the next free one when the stem is new to the sentence (then it equals `size` before the call). */
  put(stem: string): number {
    let id = this.ids.get(stem);
    if (id === undefined) {
      id = this.ids.size;
      this.ids.set(stem, id);
      if (id >= this.slotOf.length) {
        const generations = new Int32Array(2 * this.slotOf.length);
        generations.set(this.generationOf);
        this.generationOf = generations;
        const slots = new Int32Array(2 * this.slotOf.length);
        slots.set(this.slotOf);
        this.slotOf = slots;
      }
    } else if (this.generationOf[id] === this.generation) return this.slotOf[id];
    this.generationOf[id] = this.generation;
    return (this.slotOf[id] = this.size++);
  }
}

/** The sentence's stems as one main term sees them: within `window` words that say something of it, in its clause. */
// Which numbered stems the mention being read has in reach: a stamp per stem, the mention's own
// stamp new for each mention (one mention is read at a time).
let stamps = new Int32Array(0);
let stamp = 0;
// The first position in reach of each stem of the sentence (by its slot), -1 when out of reach:
// read once (the Index asks for the same stems many times), in one buffer the thread reuses; the
// same for the positions where the sentence denies each stem.
let firstAt = new Int32Array(0);
let deniedFirstAt = new Int32Array(0);
// The same first positions by stem number (stemNumbers), read where `stamps` holds the mention's stamp.
let stampedFirst = new Int32Array(0);

export class Near {
  private static current: Near | undefined;
  private slots: SentenceSlots | undefined;
  private known = 0;
  private stamp = 0;
  private at: Int32Array = firstAt;
  /** the first position in reach where the sentence denies each stem, -1 when none */
  private deniedAt: Int32Array | undefined;

  private constructor() {}

  /**
   * The thread's Near, set to one mention's reach (one mention is read at a time: the reach of the
   * one before is over, as its buffers are reused). The sentence's stems (`count` of them, each at its slot)
   * and their occurrences in word order; `asserted`: the mention is not denied, so a denied
   * occurrence never states a stem (it is read by deniedFirst, when `readDenied`).
   */
  static of(
    slots: SentenceSlots,
    count: number,
    occurrences: Occurrences,
    clause: Int32Array,
    start: number,
    end: number,
    window: number,
    numbered: ArrayLike<number>,
    known: number,
    asserted: boolean,
    readDenied: boolean,
  ): Near {
    const near = (Near.current ??= new Near());
    near.slots = slots;
    near.known = known;
    const inClause = clause[start];
    const from = places[start] - window;
    const to = places[end] + window;
    near.deniedAt = undefined;
    if (readDenied) {
      if (deniedFirstAt.length < count) deniedFirstAt = new Int32Array(Math.max(count, 2 * deniedFirstAt.length));
      near.deniedAt = deniedFirstAt;
      deniedFirstAt.fill(-1, 0, count);
    }
    if (firstAt.length < count) firstAt = new Int32Array(Math.max(count, 2 * firstAt.length));
    const at = (near.at = firstAt);
    at.fill(-1, 0, count);
    if (stamps.length < known || stamp >= 0x3fffffff) {
      stamps = new Int32Array(Math.max(known, 2 * stamps.length));
      stampedFirst = new Int32Array(stamps.length);
      stamp = 0;
    }
    const own = (near.stamp = ++stamp);
    const deniedAt = near.deniedAt;
    // In word order, so the first occurrence in reach of each stem is the first met.
    const { slot, word, denied, size } = occurrences;
    for (let j = occurrences.firstFrom(from, places); j < size; j++) {
      const w = word[j];
      if (places[w] > to) break;
      if (clause[w] !== inClause) continue;
      const k = slot[j];
      if (asserted && denied[j] === 1) {
        if (deniedAt && deniedAt[k] < 0) deniedAt[k] = w;
      } else if (at[k] < 0) {
        at[k] = w;
        if (numbered[k] >= 0 && numbered[k] < known) {
          stamps[numbered[k]] = own;
          stampedFirst[numbered[k]] = w;
        }
      }
    }
    return near;
  }

  /** Whether the stem numbered `id` is surely out of reach (numbered before the sentence was read, and not stamped). */
  outOfReach(id: number): boolean {
    return id < this.known && stamps[id] !== this.stamp;
  }

  /** Whether `stem`, numbered `id` (firstStemOf), is in reach: by its stamp when it was numbered before the sentence was read. */
  hasNumbered(id: number, stem: string): boolean {
    return id >= 0 && id < this.known ? stamps[id] === this.stamp : this.has(stem);
  }

  /** The first position in reach of `stem`, numbered `id`, or -1: by its stamp when it was numbered before the sentence was read. */
  firstNumbered(id: number, stem: string): number {
    if (id < 0 || id >= this.known) return this.first(stem);
    return stamps[id] === this.stamp ? stampedFirst[id] : -1;
  }

  /** The first position of `stem` in reach, or -1. */
  first(stem: string): number {
    const k = this.slots!.get(stem);
    return k === undefined ? -1 : this.at[k];
  }

  has(stem: string): boolean {
    const k = this.slots!.get(stem);
    return k !== undefined && this.at[k] >= 0;
  }

  /** The first position in reach where the sentence denies `stem`, or -1. */
  deniedFirst(stem: string): number {
    const k = this.slots!.get(stem);
    return k === undefined || !this.deniedAt ? -1 : this.deniedAt[k];
  }
}

const FILLER = new Set([
  'the',
  'a',
  'an',
  'of',
  'in',
  'on',
  'at',
  'to',
  'with',
  'and',
  'or',
  'is',
  'was',
  'has',
  'had',
  'his',
  'her',
  'for',
  'by',
  'from',
  'as',
  'there',
  'patient',
]);

const FILLER_LENGTH = Math.max(...[...FILLER].map((w) => w.length));
/** FILLER.has(word), most words known by their length alone (clausesOf reads every word of the note). */
export const isFiller = (word: string) => word.length <= FILLER_LENGTH && FILLER.has(word);
