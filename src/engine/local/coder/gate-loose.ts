import type { CodeTable } from '../../../terminology/code-table.js';
import type { Found } from './select.js';

/** A title match that is not the whole title stated word for word (partial or spread out). */
const LOOSE = 0.999;

const isLoose = (f: Found) => f.mention.source === 'description' && f.mention.score < LOOSE;

/**
 * High-quality level, before sentences are resolved: its wider search finds loose title matches
 * (part of the title, or its words spread over the sentence). One is kept only when firm
 * evidence (a synonym or a title stated word for word) of another code of the same 3-character
 * category is present somewhere in the note, so a stray loose match never displaces a firm one.
 */
export function gateLoose(perSentence: Found[][], table: CodeTable): Found[][] {
  const category = (f: Found) => table.codeAt(f.mention.code).slice(0, 3);
  const firm = new Map<string, Set<number>>();
  for (const items of perSentence) {
    for (const f of items) {
      if (f.assertion !== 'present' || isLoose(f)) continue;
      const codes = firm.get(category(f)) ?? new Set<number>();
      codes.add(f.mention.code);
      firm.set(category(f), codes);
    }
  }
  return perSentence.map((items) =>
    items.filter((f) => {
      if (!isLoose(f)) return true;
      const codes = firm.get(category(f));
      return codes !== undefined && [...codes].some((c) => c !== f.mention.code);
    }),
  );
}
