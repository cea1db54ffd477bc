import type { CodeTable } from '../../../terminology/code-table.js';
import type { Found } from './select.js';

/** 0-100: lexicon synonyms are strong; title matches by how much of the title is stated. */
export function confidenceOf(f: Found, table: CodeTable): number {
  const m = f.mention;
  let c = m.source === 'description' ? 45 + 50 * m.score : 100 * m.score;
  const title = table.descriptionAt(m.code);
  // "Other ..." residual codes rarely fit a title match well.
  if (m.source === 'description' && /^other\b/i.test(title)) c -= 20;
  return Math.max(0, Math.min(100, Math.round(c)));
}
