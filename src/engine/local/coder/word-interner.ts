import { type WordStems, wordStems } from '../../../terminology/text-normalize.js';

// The thread's words, each kept once with its lower case and its stems: a note's tokens are looked
// up here as the splitter reads them, so a word met before costs no new string, no new lower case,
// no stemming, and its hash (which every Map keyed by words needs) is already made. Notes repeat
// their words, and notes after notes the same clinical vocabulary. Bounded: a table past MAX_WORDS
// starts again before the next note (memory stays flat however many notes a thread reads; a note's
// ids stay valid while it is read), and its words are copies, never slices of a note.
const MAX_WORDS = 65_536;
const SLOTS = 4 * MAX_WORDS; // a power of two: a table under MAX_WORDS is at most a quarter full

let slots = new Int32Array(SLOTS).fill(-1);
let words: string[] = [];
let lowers: string[] = [];
let stems: Array<WordStems | undefined> = [];

let generation = 0;

/** Before a note's words are interned: a table past its bound starts again. */
export function startNote(): void {
  if (words.length < MAX_WORDS && slots.length === SLOTS) return;
  generation++;
  slots = new Int32Array(SLOTS).fill(-1);
  words = [];
  lowers = [];
  stems = [];
}

/** FNV-1a of text[start, end). */
function hashOf(text: string, start: number, end: number): number {
  let h = 0x811c9dc5;
  for (let k = start; k < end; k++) h = Math.imul(h ^ text.charCodeAt(k), 0x01000193);
  return h;
}

/** The thread's id of the word text[start, end), adding it when new. */
export function internWord(text: string, start: number, end: number): number {
  const length = end - start;
  const mask = slots.length - 1;
  let s = hashOf(text, start, end) & mask;
  for (let id = slots[s]; id >= 0; id = slots[s]) {
    const w = words[id];
    if (w.length === length && text.startsWith(w, start)) return id;
    s = (s + 1) & mask;
  }
  // A note past MAX_WORDS fills the table further (startNote empties it before the next one).
  if (words.length >= slots.length / 2) {
    grow();
    return internWord(text, start, end);
  }
  // A copy of its own: a slice of 13 characters or more would keep the whole note.
  const w = length < 13 ? text.slice(start, end) : (' ' + text.slice(start, end)).slice(1);
  const id = words.length;
  words.push(w);
  lowers.push(w.toLowerCase());
  slots[s] = id;
  return id;
}

/** Twice the slots, the words placed again. */
function grow(): void {
  const mask = 2 * slots.length - 1;
  slots = new Int32Array(mask + 1).fill(-1);
  for (let id = 0; id < words.length; id++) {
    let s = hashOf(words[id], 0, words[id].length) & mask;
    while (slots[s] >= 0) s = (s + 1) & mask;
    slots[s] = id;
  }
}

/** The word of an id internWord gave (valid until the next startNote that empties the table). */
export const internedWord = (id: number): string => words[id];

/** The lower case of an id's word. */
export const internedLower = (id: number): string => lowers[id];

/** The stems of an id's word read alone (wordStems: no Roman numeral read in context), kept by id when stemWords has read it. */
export const stemsOfId = (id: number): readonly string[] => stems[id]?.stems ?? wordStems(lowers[id]);

/** The stems of each id's word, as stemWords reads them (stemWords fills it). */
export const stemsById = (): Array<WordStems | undefined> => stems;

/** Which table the ids are of: it changes when startNote empties the table (ids then name other words). */
export const internGeneration = (): number => generation;
