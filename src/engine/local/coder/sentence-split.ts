import { boundedRanges, MAX_TOKEN } from './chunks.js';
import { stemWords } from '../../../terminology/text-normalize.js';
import type { SentenceStems } from './mention.js';
import { internedLower, internedWord, internWord, startNote, stemsById } from './word-interner.js';

/**
 * One sentence as the coder sees it: its words and punctuation marks, each with its offsets in
 * the note (UTF-16 code units, end exclusive), so evidence quotes the note exactly.
 */
export interface Sentence {
  words: string[];
  /** the words in lower case, made once for every rule that reads them */
  lower: string[];
  starts: number[];
  ends: number[];
  /** the words' ids in the thread's word table (word-interner.ts), for tests remembered by word (word-tests.ts) */
  ids: number[];
  /** the words' stems (stemWords), read once as the words are: shared, never to be changed */
  stems: SentenceStems;
}

/**
 * Splits a note into sentences and tokens over bounded chunks (lines, cut at sentence punctuation
 * or whitespace past 2,000 characters; runs of over 60 characters without whitespace dropped):
 * linear in the length of the note, whatever its shape. Negation comes from the ConText triggers
 * only. wink-nlp was used here before; on CodiEsp its sentence boundaries gave the same codes and
 * its negation flags cost recall at ~2x the time.
 *
 * A sentence ends at . ! ? ; before whitespace and a capital, digit or bracket ("Dr. smith" stays
 * one). A word is a run of letters and digits, with inner apostrophes, dots, hyphens and slashes
 * ("Crohn's", "e.g", "non-small", "N/V"); any other character that is not whitespace is a token
 * of its own. Read character by character (as the regular expressions
 * /(?<=[.!?;])\s+(?=[\p{Lu}\p{N}(])/u and /[\p{L}\p{N}]+(?:['’.\-/][\p{L}\p{N}]+)*|[^\s\p{L}\p{N}]/u
 * read them, at a third of their cost).
 */
export function splitSentences(text: string): Sentence[] {
  const out: Sentence[] = [];
  open.count = 0;
  startNote();
  for (const chunk of boundedRanges(text)) {
    const piece = text.slice(chunk.start, chunk.end);
    const long = piece.length > MAX_TOKEN ? longRuns(piece) : [];
    const bounds = sentenceEnds(piece);
    let bi = 0;
    let li = 0;
    const n = piece.length;
    let i = 0;
    while (i < n) {
      if (isSpace(piece.charCodeAt(i))) {
        i++;
        continue;
      }
      const a = i;
      let w = wordCharAt(piece, i);
      if (w === 0) i += codePointLength(piece, i);
      else {
        for (i += w; ;) {
          while (i < n && (w = wordCharAt(piece, i)) > 0) i += w;
          if (i + 1 < n && isJoiner(piece.charCodeAt(i)) && (w = wordCharAt(piece, i + 1)) > 0) i += 1 + w;
          else break;
        }
      }
      while (a >= bounds[bi]) {
        if (open.count) out.push(open.close());
        bi++;
      }
      while (li < long.length && long[li][1] <= a) li++;
      if (li < long.length && long[li][0] <= a) continue; // inside an over-long run
      const id = internWord(text, chunk.start + a, chunk.start + i);
      open.add(id, chunk.start + a, chunk.start + i);
    }
    if (open.count) out.push(open.close());
  }
  return out;
}

/**
 * The sentence being read, in arrays reused from sentence to sentence: a sentence gets arrays of
 * its own exact length when it closes (arrays grown by push reserve up to half again, and are
 * copied as they grow).
 */
class OpenSentence {
  count = 0;
  private readonly ids: number[] = [];
  private readonly words: string[] = [];
  private readonly lower: string[] = [];
  private readonly starts: number[] = [];
  private readonly ends: number[] = [];

  /** A word by its id (word-interner.ts). */
  add(id: number, start: number, end: number): void {
    const k = this.count++;
    if (k < this.words.length) {
      this.ids[k] = id;
      this.words[k] = internedWord(id);
      this.lower[k] = internedLower(id);
      this.starts[k] = start;
      this.ends[k] = end;
    } else {
      this.ids.push(id);
      this.words.push(internedWord(id));
      this.lower.push(internedLower(id));
      this.starts.push(start);
      this.ends.push(end);
    }
  }

  close(): Sentence {
    const n = this.count;
    this.count = 0;
    const words = this.words.slice(0, n);
    return {
      ids: this.ids.slice(0, n),
      words,
      lower: this.lower.slice(0, n),
      starts: this.starts.slice(0, n),
      ends: this.ends.slice(0, n),
      stems: stemWords(words, { ids: this.ids, stemsById: stemsById() }),
    };
  }
}

// The thread's one open sentence (splitSentences runs to its end; it never calls itself).
const open = new OpenSentence();

/** Where each sentence of a piece ends (the whitespace after its punctuation), then the piece's length. */
function sentenceEnds(piece: string): number[] {
  const bounds: number[] = [];
  const n = piece.length;
  for (let i = 1; i < n; i++) {
    const p = piece.charCodeAt(i - 1);
    if ((p !== 46 && p !== 33 && p !== 63 && p !== 59) || !isSpace(piece.charCodeAt(i))) continue;
    let j = i + 1;
    while (j < n && isSpace(piece.charCodeAt(j))) j++;
    if (j < n && opensSentence(piece, j)) bounds.push(i);
    i = j;
  }
  bounds.push(n);
  return bounds;
}

/** JavaScript's \s: ASCII whitespace, no-break and Unicode spaces, line and paragraph separators, the BOM. */
function isSpace(c: number): boolean {
  if (c < 128) return c === 32 || (c >= 9 && c <= 13);
  return (
    c === 0xa0 ||
    c === 0x1680 ||
    (c >= 0x2000 && c <= 0x200a) ||
    c === 0x2028 ||
    c === 0x2029 ||
    c === 0x202f ||
    c === 0x205f ||
    c === 0x3000 ||
    c === 0xfeff
  );
}

/** ' ’ . - /: inside a word when letters or digits follow. */
const isJoiner = (c: number) => c === 39 || c === 0x2019 || c === 46 || c === 45 || c === 47;

/** 2 for a surrogate pair at i, else 1. */
function codePointLength(s: string, i: number): number {
  const c = s.charCodeAt(i);
  if (c < 0xd800 || c > 0xdbff || i + 1 >= s.length) return 1;
  const d = s.charCodeAt(i + 1);
  return d >= 0xdc00 && d <= 0xdfff ? 2 : 1;
}

const LETTER_OR_DIGIT = /^[\p{L}\p{N}]$/u;
const CAPITAL_OR_DIGIT = /^[\p{Lu}\p{N}]$/u;
// Whether each non-ASCII character of the Basic Multilingual Plane is a letter or digit: 0 not read yet, 1 yes, 2 no.
const bmpWordChar = new Uint8Array(0x10000);

/** The length of the letter or digit at i (1, or 2 for a surrogate pair), 0 if none is there. */
function wordCharAt(s: string, i: number): number {
  const c = s.charCodeAt(i);
  if (c < 128) return (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || (c >= 48 && c <= 57) ? 1 : 0;
  const len = codePointLength(s, i);
  if (len === 1) {
    if (bmpWordChar[c] === 0) bmpWordChar[c] = LETTER_OR_DIGIT.test(s[i]) ? 1 : 2;
    return bmpWordChar[c] === 1 ? 1 : 0;
  }
  return LETTER_OR_DIGIT.test(s.slice(i, i + 2)) ? 2 : 0;
}

/** A capital, a digit or an opening bracket at i. */
function opensSentence(s: string, i: number): boolean {
  const c = s.charCodeAt(i);
  if (c < 128) return (c >= 65 && c <= 90) || (c >= 48 && c <= 57) || c === 40;
  return CAPITAL_OR_DIGIT.test(s.slice(i, i + codePointLength(s, i)));
}

/** [start, end) of every run of more than MAX_TOKEN non-whitespace characters: one pass. */
function longRuns(text: string): Array<[number, number]> {
  const out: Array<[number, number]> = [];
  let from = -1;
  for (let i = 0; i <= text.length; i++) {
    const c = i < text.length ? text.charCodeAt(i) : 32;
    const space =
      c === 32 || c === 9 || c === 10 || c === 13 || c === 12 || c === 11 || c === 0xa0 || (c >= 0x2000 && c <= 0x200a) || c === 0x3000;
    if (!space) {
      if (from < 0) from = i;
    } else if (from >= 0) {
      if (i - from > MAX_TOKEN) out.push([from, i]);
      from = -1;
    }
  }
  return out;
}
