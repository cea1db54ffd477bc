import type { CodeTable } from '../../../terminology/code-table.js';

const UNSPECIFIED_SITE = /\bunspecified site\b/i;

/**
 * The code to complete an Index code from, when the Index gives the unspecified site
 * ("Fracture, pathological, due to, osteoporosis M80.00": "... unspecified site"): its parent,
 * whose subcodes name each site, so the site and side the note states are read from the Tabular,
 * as a coder does; with none stated the unspecified site is still the first fit. Else the code.
 */
export function siteParentOf(table: CodeTable, code: string): string {
  let byCode = cache.get(table);
  if (!byCode) cache.set(table, (byCode = new Map()));
  let out = byCode.get(code);
  if (out === undefined) byCode.set(code, (out = parentIfUnspecifiedSite(table, code)));
  return out;
}

// Read once per Index code: a note reaches the same codes again and again.
const cache = new WeakMap<CodeTable, Map<string, string>>();

function parentIfUnspecifiedSite(table: CodeTable, code: string): string {
  const base = code.replace(/[.-]/g, '');
  if (base.length < 5) return code;
  const own = table.indexOf(base);
  const title = own !== undefined ? table.descriptionAt(own) : (table.descendantsOf(base)[0]?.description ?? '');
  return UNSPECIFIED_SITE.test(title) ? base.slice(0, -1) : code;
}
