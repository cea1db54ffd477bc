import type { TermRows } from '../../../../terminology/term-tables.js';
import { type Candidates, dotted, sentenceAt } from '../candidate.js';

// Lymphomas (C81-C88) take a 5th character for the lymph node region; a note names the nodes as a
// coder finds them in the Neoplasm Table ("Neoplasm, lymph, gland, cervical": secondary C77.0, "lymph
// nodes of head, face and neck"). That row's region is the lymphoma's: "cervical lymph nodes" is
// C83.31 "..., lymph nodes of head, face, and neck", not a region the note never names.
const LYMPHOMA = /^C8[1-8]/;
const WORDS = (t: string) =>
  new Set(
    t
      .toLowerCase()
      .split(/[^a-z]+/)
      .filter((w) => w.length > 2 && w !== 'and'),
  );

const glands = new WeakMap<TermRows, Map<string, number>>();
/** The Neoplasm Table's lymph gland rows by name ("cervical", "axilla"), built once per table. */
function glandRows(rows: TermRows): Map<string, number> {
  let out = glands.get(rows);
  if (out) return out;
  out = new Map();
  for (let i = 1; i < rows.size; i = rows.end[i]) {
    if (!/^lymph\b/i.test(rows.titleOf(i))) continue;
    for (let j = i + 1; j < rows.end[i]; j++) {
      if (!/^gland\b/i.test(rows.titleOf(j))) continue;
      for (const g of rows.children(j))
        for (const name of rows.titleOf(g).toLowerCase().split(/,\s*/)) if (!out.has(name)) out.set(name, g);
      break;
    }
  }
  glands.set(rows, out);
  return out;
}

export function applyLymphNodeRegion(cands: Candidates): void {
  const { tables, table } = cands.ctx;
  if (!tables) return;
  const rows = tables.neoplasms;
  for (const c of cands.finalsIn('C8')) {
    if (!LYMPHOMA.test(c.code) || c.code.length !== 5) continue;
    const s = sentenceAt(cands.ctx, c.spans[0].start, c.spans[0].end);
    if (!s) continue;
    // The name of the nodes right before them ("cervical lymph nodes", "axillary nodes"), not any site of the sentence.
    const names = glandRows(rows);
    const gland = s.lower
      .map((w, k) => (/^(lymph|nodes?|nodal)$/.test(s.lower[k + 1] ?? '') ? names.get(w) : undefined))
      .find((g) => g !== undefined);
    const cell = gland === undefined ? '' : rows.cellOf(gland, 1).replace(/[.-]/g, '');
    const at = cell ? table.indexOf(cell) : undefined;
    if (at === undefined) continue;
    // The region of the secondary code's title, after "lymph nodes of" or before "lymph nodes".
    const title = table.descriptionAt(at).toLowerCase();
    const region = /lymph nodes of (.+)$/.exec(title)?.[1] ?? /(\w+) lymph nodes$/.exec(title)?.[1];
    if (!region) continue;
    const want = WORDS(region);
    for (const ch of '0123456789') {
      const index = table.indexOf(c.code.slice(0, 4) + ch);
      if (index === undefined || !table.billableAt(index) || index === c.index) continue;
      const got = WORDS(table.descriptionAt(index).split(',').slice(1).join(','));
      if (![...want].every((w) => got.has(w))) continue;
      const made = cands.assign(table.codeAt(index), `lymph node region by the Neoplasm Table (${rows.pathOf(gland!)})`, [c]);
      if (made && made !== c) cands.discard(c, `Discarded: the nodes the note names are ${region} (${dotted(made.code)}).`);
      break;
    }
  }
}
