import { boundedRanges, MAX_TOKEN } from './chunks.js';

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
}

// Sentence ends: . ! ? ; before whitespace and a capital, digit or bracket ("Dr. smith" stays one).
const SENTENCE_END = /(?<=[.!?;])\s+(?=[\p{Lu}\p{N}(])/gu;
// Words keep inner apostrophes, dots, hyphens and slashes ("Crohn's", "e.g", "non-small", "N/V").
const TOKEN = /[\p{L}\p{N}]+(?:['’.\-/][\p{L}\p{N}]+)*|[^\s\p{L}\p{N}]/gu;

/**
 * Splits a note into sentences and tokens with regular expressions over bounded chunks (lines,
 * cut at sentence punctuation or whitespace past 2,000 characters; runs of over 60 characters
 * without whitespace dropped): linear in the length of the note, whatever its shape. Negation
 * comes from the ConText triggers only. wink-nlp was used here before; on CodiEsp its sentence
 * boundaries gave the same codes and its negation flags cost recall at ~2x the time.
 */
export function splitSentences(text: string): Sentence[] {
  const out: Sentence[] = [];
  for (const chunk of boundedRanges(text)) {
    const piece = text.slice(chunk.start, chunk.end);
    const long = piece.length > MAX_TOKEN ? longRuns(piece) : [];
    const bounds: number[] = [];
    for (const m of piece.matchAll(SENTENCE_END)) bounds.push(m.index);
    bounds.push(piece.length);
    let bi = 0;
    let li = 0;
    let s: Sentence = { words: [], lower: [], starts: [], ends: [] };
    // match() is much cheaper than a match object per token; every non-space character belongs
    // to some token, so each token is the next occurrence of its text after the previous one.
    let pos = 0;
    for (const w of piece.match(TOKEN) ?? []) {
      const a = piece.indexOf(w, pos);
      pos = a + w.length;
      while (a >= bounds[bi]) {
        if (s.words.length) out.push(s);
        s = { words: [], lower: [], starts: [], ends: [] };
        bi++;
      }
      while (li < long.length && long[li][1] <= a) li++;
      if (li < long.length && long[li][0] <= a) continue; // inside an over-long run
      s.words.push(w);
      s.lower.push(w.toLowerCase());
      s.starts.push(chunk.start + a);
      s.ends.push(pos + chunk.start);
    }
    if (s.words.length) out.push(s);
  }
  return out;
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
