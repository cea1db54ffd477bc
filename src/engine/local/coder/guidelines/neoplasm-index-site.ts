import type { IndexTabular } from '../../../../terminology/index-tabular.js';
import type { TermRows } from '../../../../terminology/term-tables.js';
import { wordStems } from '../../../../terminology/text-normalize.js';
import { assertWords } from '../assertions.js';
import { type Candidates, dotted } from '../candidate.js';
import { completeCode } from '../complete-code.js';
import type { Sentence } from '../sentence-split.js';
import { isHistory } from './neoplasm-table.js';

// Guideline I.C.2: a morphology the Index codes itself lists its sites under a subterm a note never
// states, as a coder reads it: "Melanoma, skin, back C43.59", "Nevus, skin, arm D22.6-", "Lipoma,
// site classification, trunk D17.1". The site words the note states are looked up there, with the
// region of the body the Neoplasm Table's skin row for them names ("back": skin of trunk).
const GROUPS = new Set(['skin', 'site classification']);
const NEOPLASM_CODE = /^(C|D[0-4])/;
// The body regions of the skin codes' titles, and the words the Index's site subterms use for them.
const REGION_WORDS: Record<string, string[]> = { 'upper limb': ['arm', 'arms'], 'lower limb': ['leg', 'legs'] };
const CLAUSE_END = /^[.;,:()]$|^(and|with|without|but)$/;

interface Morphology {
  main: number;
  /** the main term's own code, undotted ("C439") */
  own: string;
  /** the grouping subterms ("skin", "site classification") */
  groups: number[];
}

const morphologies = new WeakMap<IndexTabular, Map<string, Morphology | null>>();
/** The Index main term a word names when it is a neoplasm coded by site under a grouping subterm. */
function morphologyOf(it: IndexTabular, word: string): Morphology | undefined {
  // (Read for every word of the note: no closure here, which would cost each call a context.)
  let cache = morphologies.get(it);
  if (!cache) morphologies.set(it, (cache = new Map()));
  const had = cache.get(word);
  if (had !== undefined) return had ?? undefined;
  const out = readMorphology(it, word);
  if (cache.size < 10_000) cache.set(word, out);
  return out ?? undefined;
}

function readMorphology(it: IndexTabular, word: string): Morphology | null {
  for (const m of it.mainTerms(word)) {
    if (!NEOPLASM_CODE.test(it.codeOf(m))) continue;
    const groups = it.children(m).filter(
      (c) =>
        GROUPS.has(
          it
            .titleOf(c)
            .toLowerCase()
            .replace(/\s*\(.*$/, ''),
        ) && it.end[c] > c + 1,
    );
    if (groups.length) return { main: m, own: it.codeOf(m).replace(/[.-]/g, ''), groups };
  }
  return null;
}

const regions = new WeakMap<TermRows, Map<string, string[]>>();
/** The body region a skin site word falls in, by the title of its Neoplasm Table skin code ("back": "trunk"). */
function regionWords(rows: TermRows | undefined, table: Candidates['ctx']['table'], word: string): string[] {
  if (!rows || word.length < 3) return [];
  let cache = regions.get(rows);
  if (!cache) regions.set(rows, (cache = new Map()));
  const had = cache.get(word);
  if (had) return had;
  const out: string[] = [];
  for (let i = 1; i < rows.size; i = rows.end[i]) {
    if (!/^skin\b/i.test(rows.titleOf(i))) continue;
    for (const c of rows.children(i)) {
      const name = rows.titleOf(c).toLowerCase().split(/,\s*/);
      if (!name.includes(word)) continue;
      const cell = rows.cellOf(c, 0);
      const index = cell ? completeCode(table, cell, { present: new Set(), negated: new Set() }) : undefined;
      const title = index === undefined ? '' : table.descriptionAt(index).toLowerCase();
      const region =
        /\bof skin of (?:other (?:and unspecified )?parts? of |unspecified parts? of )?(?:unspecified |right |left )?([a-z ]+?)(?:,|$| and )/.exec(
          title,
        )?.[1];
      if (region) out.push(region, ...(REGION_WORDS[region] ?? []));
    }
  }
  if (cache.size < 10_000) cache.set(word, out);
  return out;
}

/**
 * Neoplasms the Index codes by their own entry with a site stated: the site's subterm under the
 * entry's grouping subterm, completed by the side the sentence states; the entry's own code for
 * the same words ("Melanoma" C43.9, "Lipoma" D17.9) gives way.
 */
export function applyNeoplasmIndexSites(cands: Candidates): void {
  const { it, sentences } = cands.ctx;
  if (!it) return;
  // (The per-word loop holds no variable a closure reads: such a loop makes a context per word.)
  for (const s of sentences) {
    let asserted: ReturnType<typeof assertWords> | undefined;
    for (let i = 0; i < s.lower.length; i++) {
      const w = s.lower[i];
      if (w.length < 5) continue;
      const morph = morphologyOf(it, w);
      if (!morph) continue;
      asserted ??= assertWords(s.words);
      // A malignancy excised with no evidence of disease is history (I.C.2.d), the history rule's to code.
      if (asserted[i] !== 'present' || isHistory(s, i)) continue;
      const had = cands.get(morph.own);
      if (had && !had.final) continue;
      codeBySite(cands, it, s, i, morph);
    }
  }
}

/** The morphology named at word i of sentence s, coded by the site its clause states. */
function codeBySite(cands: Candidates, it: IndexTabular, s: Sentence, i: number, morph: Morphology): void {
  const { table, tables, defaults } = cands.ctx;
  let a = i;
  while (a > 0 && !CLAUSE_END.test(s.lower[a - 1])) a--;
  let b = i + 1;
  while (b < s.lower.length && !CLAUSE_END.test(s.lower[b])) b++;
  const clause = new Set(s.lower.slice(a, b));
  for (const x of s.lower.slice(a, b)) for (const r of regionWords(tables?.neoplasms, table, x)) clause.add(r);
  const text = ` ${[...clause].join(' ')} `;
  let best: number | undefined;
  let bestLen = 0;
  for (const g of morph.groups)
    for (const t of it.children(g)) {
      const name = it
        .titleOf(t)
        .toLowerCase()
        .replace(/\s*\(.*$/, '')
        .replace(/\s+nec$/, '');
      // A site whose code is itself unspecified ("subcutaneous" D17.30) says less than a region stated beside it.
      const rank = name.length + (unspecifiedCode(table, it.codeOf(t)) ? 0 : 1000);
      if (!it.codeOf(t) || rank <= bestLen) continue;
      const words = name.split(/\s+/);
      if (words.every((x) => clause.has(x) || clause.has(x.replace(/s$/, ''))) || text.includes(` ${name} `)) {
        best = t;
        bestLen = rank;
      }
    }
  if (best === undefined) return;
  const present = new Set([...[...clause].flatMap((x) => wordStems(x)), ...(defaults ?? [])]);
  const index = completeCode(table, it.codeOf(best), { present, negated: new Set() });
  if (index === undefined) return;
  const span = { start: s.starts[a], end: s.ends[b - 1] };
  const own = morph.own;
  const group = morph.groups.find((g) => best > g && best < it.end[g]) ?? morph.main;
  const title = `${it.titleOf(morph.main)}, ${it.titleOf(group)}, ${it.titleOf(best)}`;
  const made = cands.assign(table.codeAt(index), `Alphabetic Index by site (guideline I.C.2): ${title}`, [], [span]);
  if (!made) return;
  for (const c of cands.list)
    if (c !== made && c.final && c.code === own && c.spans.some((p) => p.start < span.end && span.start < p.end))
      cands.discard(c, `Discarded: the Alphabetic Index codes this neoplasm by its site (${title}: ${dotted(made.code)}).`);
}

const unspecifiedCode = (table: Candidates['ctx']['table'], code: string) => {
  const index = table.indexOf(code.replace(/[.-]/g, ''));
  return index !== undefined && /\bunspecified\b/i.test(table.descriptionAt(index));
};
