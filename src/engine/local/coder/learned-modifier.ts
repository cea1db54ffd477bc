import type { CodeTable } from '../../../terminology/code-table.js';
import type { IndexTabular } from '../../../terminology/index-tabular.js';
import { wordStems } from '../../../terminology/text-normalize.js';
import { mainTermsByStems } from './index-terms.js';
import type { Mention } from './mention.js';

/**
 * A learned phrase of one word that modifies the condition named right after it ("benign" of
 * "benign neoplasm", learned from "benign prostatic hyperplasia"): the next word is an Index main
 * term the code's title does not name, so the word is said of that condition, not of the code's
 * (unless the code is one to be said of another condition: an organism, B95-B97).
 */
export function modifiesAnother(it: IndexTabular | undefined, table: CodeTable, m: Mention, lower: readonly string[]): boolean {
  if (!it || m.source !== 'learned' || m.start !== m.end) return false;
  const next = lower[m.end + 1];
  if (!next || !/^[a-z]{4,}$/.test(next)) return false;
  const stems = wordStems(next);
  if (stems.length !== 1 || !mainTermsByStems(it).byStems.has(stems[0])) return false;
  const description = table.descriptionAt(m.code).toLowerCase();
  // An organism's code (B95-B97) is made to be said of another condition: "E. coli pyelonephritis".
  if (description.includes('classified elsewhere')) return false;
  return !wordStems(description.replace(/[^a-z ]/g, ' ')).includes(stems[0]);
}
