import type { Evidenced, Turn } from '../extraction/index.js';

/** The visit's own words behind an answer: `line 21: "..."`, as the transcript has them. */
export type LineIndex = Map<number, string>;

export function lineIndex(turns: Turn[]): LineIndex {
  const index: LineIndex = new Map();
  for (const t of turns) for (const l of t.lines) index.set(l.line, `${t.speaker === 'unknown' ? '' : `${t.speaker}: `}${l.text}`);
  return index;
}

const clip = (s: string) => (s.length > 300 ? `${s.slice(0, 297)}...` : s);

/** One answer line: the statement, then the transcript lines it relies on, quoted. */
export function withQuotes(item: Evidenced, index: LineIndex): string {
  const quoted = item.lines
    .filter((l) => index.has(l))
    .slice(0, 3)
    .map((l) => `line ${l}: "${clip(index.get(l)!)}"`);
  return quoted.length ? `- ${item.text}\n  (${quoted.join('; ')})` : `- ${item.text}`;
}
