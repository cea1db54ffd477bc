import type { CodeTable } from '../../../../terminology/code-table.js';
import { stemWords } from '../../../../terminology/text-normalize.js';
import type { Candidate } from '../candidate.js';
import type { Stated } from '../complete-code.js';

/**
 * The manifestation code with the axes of the code it replaces: the billable code of the
 * manifestation's category whose title after its first comma is that code's ("unspecified
 * severity, with agitation": F03.911 -> F02.811); else the manifestation itself.
 */
export function sameAxes(table: CodeTable, manifestation: string, replaced: Candidate): number | undefined {
  const tail = (title: string) => title.slice(title.indexOf(',') + 1).trim();
  const want = tail(table.descriptionAt(replaced.index));
  const own = table.indexOf(manifestation);
  if (own !== undefined && table.descriptionAt(own).indexOf(',') < 0) return own;
  const same = table
    .descendantsOf(manifestation.slice(0, 3))
    .find((r) => r.billable && r.description.includes(',') && tail(r.description) === want);
  return same ? table.indexOf(same.code) : own !== undefined && table.billableAt(own) ? own : undefined;
}

const titleParts = (title: string) => title.toLowerCase().split(', ');

/**
 * The code of the same category whose title says, where `index`'s says "unspecified ...", what the
 * sentence states ("Dementia in other diseases ..., unspecified severity, ..." -> "..., mild, ..."
 * for "mild"): the Index gives the unspecified code of a pair, the note may state the axis. Else `index`.
 */
export function statedAxis(table: CodeTable, index: number, stated: Stated): number {
  const own = titleParts(table.descriptionAt(index));
  const open = own.findIndex((part) => part.startsWith('unspecified'));
  if (open < 0) return index;
  for (const row of table.descendantsOf(table.codeAt(index).slice(0, 3))) {
    if (!row.billable) continue;
    const parts = titleParts(row.description);
    if (parts.length !== own.length || parts.some((part, k) => k !== open && part !== own[k])) continue;
    const words = stemWords(parts[open].split(/[\s()]+/)).stems;
    if (words.length > 0 && words.every((w) => stated.present.has(w))) return table.indexOf(row.code) ?? index;
  }
  return index;
}
