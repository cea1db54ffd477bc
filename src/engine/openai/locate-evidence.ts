import type { CodeEvidence } from '../engine.js';
import { evidenceOf } from '../local/coder/evidence.js';

const MAX_QUOTE = 1_000;

/**
 * Where a quotation the model gave lies in the coded text: the exact words first, then the same
 * words ignoring case. Nothing when the model paraphrased; its words are never taken for the note's.
 */
export function locateEvidence(text: string, quote: string, noteLength?: number): CodeEvidence[] {
  const q = quote
    .trim()
    .replace(/^["“']+|["”']+$/g, '')
    .slice(0, MAX_QUOTE);
  if (q.length < 2) return [];
  let at = text.indexOf(q);
  if (at < 0) at = text.toLowerCase().indexOf(q.toLowerCase());
  if (at < 0) return [];
  return evidenceOf(text, [{ start: at, end: at + q.length }], noteLength);
}
