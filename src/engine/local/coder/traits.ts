import type { CodeTrait } from '../../engine.js';
import type { Candidate, NoteContext } from './candidate.js';
import { triggersOf } from './assertions.js';

const HISTORY_OF_WORDS = /^(personal history|history|hx|h\/o)\b/i;
const RESOLVED = /^(has )?(fully )?(resolved|resolves|resolution|recovered|healed|cleared|corrected)\b/i;

/**
 * The traits of a code, as Amazon Comprehend Medical names them: `negated`, `uncertain`,
 * `historical`, `family`, `hypothetical`, `resolved`, each with the words of the note that carry
 * it: the ConText triggers whose reach holds the code's evidence.
 */
export function traitsOf(c: Candidate, ctx: NoteContext): CodeTrait[] {
  const out: CodeTrait[] = [];
  const seen = new Set<string>();
  for (const span of c.spans) {
    const si = sentenceIndex(ctx, span.start);
    if (si < 0) continue;
    const s = ctx.sentences[si];
    const first = s.starts.findIndex((st) => st >= span.start);
    const last = s.ends.findLastIndex((e) => e <= span.end);
    if (first < 0 || last < first) continue;
    // Words an Index "without" subterm read ("aura" of "migraine without aura") are the absence
    // the code names, not a denial of it.
    const denied = c.found?.mention.sentence === si ? c.found.mention.denied : undefined;
    const reaching = triggersOf(s.words, s.lower).filter(
      (t) => t.to >= first && t.from <= last && (!denied || !reachOnly(denied, Math.max(first, t.from), Math.min(last, t.to))),
    );
    for (const t of reaching) {
      // "likely" inside "most likely": the longer trigger speaks.
      if (reaching.some((o) => o !== t && o.start <= t.start && o.end >= t.end && o.end - o.start > t.end - t.start)) continue;
      const text = s.words.slice(t.start, t.end + 1).join(' ');
      const name = t.assertion === 'historical' && RESOLVED.test(text) ? 'resolved' : t.assertion;
      // "history of" before a condition kept current (a chronic one the note lists) is no trait of it.
      if (name === 'historical' && c.final && c.assertion === 'present' && HISTORY_OF_WORDS.test(text)) continue;
      if (name === 'present' || seen.has(`${name}:${text}`)) continue;
      seen.add(`${name}:${text}`);
      out.push({ name, text });
    }
  }
  return out;
}

/** Whether every word from..to the trigger reaches within the evidence is one of `words`. */
function reachOnly(words: readonly number[], from: number, to: number): boolean {
  for (let w = from; w <= to; w++) if (!words.includes(w)) return false;
  return true;
}

function sentenceIndex(ctx: NoteContext, start: number): number {
  const list = ctx.sentences;
  let lo = 0;
  let hi = list.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const s = list[mid];
    if (s.ends[s.ends.length - 1] <= start) lo = mid + 1;
    else if (s.starts[0] > start) hi = mid - 1;
    else return mid;
  }
  return -1;
}
