import type { IndexTabular } from '../../../../terminology/index-tabular.js';
import type { CodeTable } from '../../../../terminology/code-table.js';
import type { TermRows } from '../../../../terminology/term-tables.js';

// Guideline I.C.2 and the Neoplasm Table's introduction: the coder reads the morphology first. Its
// Index entry, or the subterm for the words before it ("Carcinoma, basal cell (see also Neoplasm,
// skin, malignant)"; "Sarcoma - see also Neoplasm, connective tissue, malignant"), names the
// table's column and, at times, the part of the table to look the site up in.

/** The part of the table a reference names: "Neoplasm, skin, malignant" -> "skin"; "by site" names none. */
export function referredSite(ref: string): string | undefined {
  const parts = ref
    .toLowerCase()
    .replace(/\([^)]*\)/g, '')
    .split(/,\s*/)
    .map((p) => p.trim())
    .filter(Boolean);
  if (parts[0] !== 'neoplasm' || parts.includes('by site')) return undefined;
  const site = parts.slice(1, -1).join(', ');
  return site || undefined;
}

/**
 * The Index reference for the morphology at word i: that of the main term's subterm the words just
 * before it state ("basal cell" carcinoma), else the main term's own. Inline references in a
 * subterm's title ("basal cell (pigmented) (see also Neoplasm, skin, malignant)") count.
 */
export function morphologyReference(it: IndexTabular, main: number, lower: readonly string[], i: number): string {
  const refs = referencesOf(it, main);
  if (refs.size > 0)
    for (let n = 3; n >= 1; n--) {
      if (i - n < 0) continue;
      const before = lower.slice(i - n, i).join(' ');
      const stripped = before.replace(/ cell$/, '');
      const a = refs.get(before);
      const b = stripped === before ? undefined : refs.get(stripped);
      // The first subterm (in the Index's order) whose bare title either reading is.
      const hit = a && b ? (a.order < b.order ? a : b) : (a ?? b);
      if (hit) return hit.ref;
    }
  return `${it.seeOf(main)} ${it.seeAlsoOf(main)}`;
}

/** Per main term, its subterms that refer to the Neoplasm Table, by bare title (the first of a title): read once per Index. */
const references = new WeakMap<IndexTabular, Map<number, Map<string, { ref: string; order: number }>>>();

function referencesOf(it: IndexTabular, main: number): Map<string, { ref: string; order: number }> {
  let byMain = references.get(it);
  if (!byMain) references.set(it, (byMain = new Map()));
  let out = byMain.get(main);
  if (out) return out;
  out = new Map();
  let order = 0;
  for (const c of it.children(main)) {
    const title = it.titleOf(c).toLowerCase();
    const bare = title.replace(/\s*\(.*$/, '').trim();
    const inline = /see also ([^)]*)\)/.exec(`${title} ${it.nemodOf(c).toLowerCase()}`)?.[1] ?? '';
    const ref = `${it.seeOf(c)} ${it.seeAlsoOf(c)} ${inline}`.trim();
    if (/^neoplasm\b/i.test(ref) && !out.has(bare)) out.set(bare, { ref, order });
    order++;
  }
  byMain.set(main, out);
  return out;
}

/** The level-1 row of the table a referred site names ("skin" -> "skin NOS"; "connective tissue" -> "connective tissue NEC"). */
export function scopeRow(rows: TermRows, site: string): number | undefined {
  let byName = scopeRows.get(rows);
  if (!byName) {
    scopeRows.set(rows, (byName = new Map()));
    for (let i = 1; i < rows.size; i = rows.end[i]) {
      const name = rows
        .titleOf(i)
        .toLowerCase()
        .split(/,\s*/)[0]
        .replace(/\s+(nos|nec)$/, '');
      if (!byName.has(name)) byName.set(name, i);
    }
  }
  return byName.get(site);
}

/** The level-1 rows of a table by name (scopeRow), read once per table. */
const scopeRows = new WeakMap<TermRows, Map<string, number>>();

/**
 * A site row's subrow for the morphology the sentence states ("scalp, squamous cell carcinoma"
 * C44.42; "eyelid, sebaceous cell"), when every word of its title is stated; the row itself otherwise.
 */
export function morphologyRow(rows: TermRows, row: number, stated: ReadonlySet<string>): number {
  for (const c of rows.children(row)) {
    const words = rows
      .titleOf(c)
      .toLowerCase()
      .split(/[\s,]+/)
      .filter(Boolean);
    // A morphology subrow ("basal cell carcinoma", "sebaceous cell"), not a part of the site ("breast, lower").
    if (words.includes('nec') || words.includes('specified') || !words.some((w) => /(oma|cell)$/.test(w))) continue;
    if ([0, 1, 2, 3, 4, 5].some((k) => rows.cellOf(c, k)) && words.every((w) => stated.has(w))) return c;
  }
  return row;
}

/**
 * The Tabular code for the same site that names the type the sentence states, beside a cell the table
 * leaves unspecified ("Unspecified malignant neoplasm of skin of other parts of face" C44.309, for a
 * basal cell carcinoma of the cheek: "Basal cell carcinoma of skin of other parts of face" C44.319).
 * A code of the same length one character apart, whose title keeps the site words after "of" and
 * whose type words before them are all stated.
 */
export function statedTypeSibling(table: CodeTable, index: number, stated: ReadonlySet<string>): number {
  const title = table.descriptionAt(index).toLowerCase();
  const at = title.indexOf(' of ');
  if (!title.startsWith('unspecified ') || at < 0) return index;
  const tail = title.slice(at);
  const code = table.codeAt(index);
  for (let p = 4; p < code.length; p++)
    for (const ch of '0123456789') {
      if (ch === code[p]) continue;
      const other = table.indexOf(code.slice(0, p) + ch + code.slice(p + 1));
      if (other === undefined || !table.billableAt(other)) continue;
      const t = table.descriptionAt(other).toLowerCase();
      if (!t.endsWith(tail) || t.length === tail.length) continue;
      const head = t
        .slice(0, t.length - tail.length)
        .split(/\s+/)
        .filter(Boolean);
      if (head.every((w) => stated.has(w))) return other;
    }
  return index;
}

// Words between a heading's site and its diagnosis ("Liver, core biopsy: ...", "Brain lesions: ...").
const HEADING_WORDS = /^(,|lesions?|mass|masses|nodules?|biopsy|core|needle|specimen|resection|excision|tissue|deposits?)$/;

/**
 * The site of a pathology heading before the neoplasm at word i ("Liver, biopsy: metastatic
 * carcinoma from ..."): the words before the colon, past the specimen's words; undefined without one.
 */
export function headingSite(lower: readonly string[], i: number): [number, number] | undefined {
  let k = i - 1;
  while (k >= 0 && /^(metastatic|secondary|poorly|moderately|well|differentiated|invasive)$/.test(lower[k])) k--;
  if (lower[k] !== ':') return undefined;
  k--;
  while (k >= 0 && HEADING_WORDS.test(lower[k])) k--;
  let j = k;
  while (j >= 0 && k - j < 3 && /^[a-z]+$/.test(lower[j])) j--;
  return k > j ? [j + 1, k + 1] : undefined;
}

/** The table part the morphology at word i refers to ("Carcinoma, basal cell": skin), if any. */
export function scopeOf(it: IndexTabular | undefined, rows: TermRows, lower: readonly string[], i: number): number | undefined {
  if (!it) return undefined;
  const w = lower[i];
  for (const name of new Set([w, w.replace(/e?s$/, ''), w.replace(/s$/, '')]))
    for (const m of it.mainTerms(name)) {
      const site = referredSite(morphologyReference(it, m, lower, i));
      if (site) return scopeRow(rows, site);
    }
  return undefined;
}
