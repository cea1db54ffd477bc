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
const LONG_RUN = new RegExp(`\\S{${MAX_TOKEN + 1},}`, 'g');

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
    const long: Array<[number, number]> = [];
    if (piece.length > MAX_TOKEN) for (const m of piece.matchAll(LONG_RUN)) long.push([m.index, m.index + m[0].length]);
    const bounds: number[] = [];
    for (const m of piece.matchAll(SENTENCE_END)) bounds.push(m.index);
    bounds.push(piece.length);
    let bi = 0;
    let li = 0;
    let s: Sentence = { words: [], lower: [], starts: [], ends: [] };
    for (const m of piece.matchAll(TOKEN)) {
      const a = m.index;
      while (a >= bounds[bi]) {
        if (s.words.length) out.push(s);
        s = { words: [], lower: [], starts: [], ends: [] };
        bi++;
      }
      while (li < long.length && long[li][1] <= a) li++;
      if (li < long.length && long[li][0] <= a) continue; // inside an over-long run
      const w = m[0];
      s.words.push(w);
      s.lower.push(w.toLowerCase());
      s.starts.push(chunk.start + a);
      s.ends.push(chunk.start + a + w.length);
    }
    if (s.words.length) out.push(s);
  }
  return out;
}
