import type { IndexTabular } from '../../../../terminology/index-tabular.js';
import { NEOPLASM_COLUMNS, type TermRows } from '../../../../terminology/term-tables.js';
import { wordStems } from '../../../../terminology/text-normalize.js';
import { assertWords } from '../assertions.js';
import type { Candidates, Span } from '../candidate.js';
import { completeCode } from '../complete-code.js';
import type { Sentence } from '../sentence-split.js';
import { stemsOfId } from '../word-interner.js';
import { wordTest } from '../word-tests.js';
import { headingSite, morphologyRow, scopeOf, statedTypeSibling } from './neoplasm-morphology.js';

// Guideline I.C.2, by the FY2026 Neoplasm Table: a neoplasm the note states with its site is coded
// from the site's row and the behaviour's column. The behaviour is the Alphabetic Index's: its
// entry for the word the note uses says "see also Neoplasm, by site, malignant" ("Carcinoma"),
// "Neoplasm, benign, by site" ("Adenoma"), "Neoplasm, secondary, by site" ("Metastasis,
// metastatic, spread (to)"), "Neoplasm, unspecified behavior, by site" ("Tumor").
type Behaviour = (typeof NEOPLASM_COLUMNS)[number];

const BY_REFERENCE: Array<[RegExp, Behaviour]> = [
  [/\bsecondary\b/, 'secondary'],
  [/\bin situ\b/, 'in situ'],
  [/\bbenign\b/, 'benign'],
  [/\buncertain behavior\b/, 'uncertain'],
  [/\bunspecified behavior\b/, 'unspecified'],
  [/\bmalignant\b/, 'primary'],
];
// Words of a neoplasm the Index sends to the table under another name.
const METASTASIS = /^(metastasis|metastases|metastatic|mets)$/;
const NEOPLASM = /^(neoplasm|neoplasms|neoplasia)$/;
const NEO_WORD = /(oma|omas|cancer|cancers|malignanc|neoplas|tumou?rs?$|metasta|mets$)/;
// Words that say which behaviour a neoplasm or tumour is, before it.
const ADJECTIVE: Record<string, Behaviour> = { benign: 'benign', malignant: 'primary', secondary: 'secondary', metastatic: 'secondary' };
// Words between a neoplasm and its site ("carcinoma of the head of the pancreas", "metastases to the liver").
const LINK = new Set([
  'of',
  'on',
  'the',
  'in',
  'to',
  'into',
  'involving',
  'within',
  'at',
  'left',
  'right',
  'spread',
  'disease',
  'deposits',
  'a',
  'an',
  'both',
  'bilateral',
]);
// Words of a neoplasm's kind or size before it, not its site ("a 9 cm cystic tumor": "cystic" is no cystic duct).
const SKIP_BEFORE = new Set(
  'left right primary invasive advanced metastatic malignant benign a an the known large small giant huge cystic solid mixed hemorrhagic haemorrhagic necrotic ulcerated infiltrating recurrent multiple bilateral'.split(
    ' ',
  ),
);
const STOP = /^[.,;:()/]$|^(and|or|with|without|from|was|is|were|are|which|that|after|on|for|by|but|since|status)$/;
// I.C.2.d: a malignancy excised or eradicated, with no further treatment and no evidence of disease, is history (Z85).
const GONE =
  /^resolved$|^(no|without) (evidence of (disease|recurrence|malignancy|residual disease)|recurrence|residual (disease|tumor|tumour)|further treatment)$|^(ned|disease-free|cancer-free|tumor-free)$|^free of (disease|cancer|recurrence)$/;
const GONE_FIRST = new Set(['resolved', 'no', 'without', 'ned', 'disease-free', 'cancer-free', 'tumor-free', 'free']);
const REMOVED =
  /^(resected|excised|removed|eradicated|treated|s\/p|status post|lumpectomy|mastectomy|colectomy|prostatectomy|nephrectomy|hysterectomy|thyroidectomy|resection|excision)$/;
const TREATED_NOW =
  /^(currently|current|ongoing|active|receiving|undergoing|chemotherapy|chemo|radiotherapy|immunotherapy|palliative|metastatic|progression|progressing|recurrent|recurred)$/;

/** Whether a word may name a neoplasm (remembered per word: a note repeats its words). */
const isNeoWord = wordTest((w) => w.length >= 5 && NEO_WORD.test(w));

/** The behaviour of a word the note names a neoplasm by, from its Index entry's reference to the Neoplasm Table. */
const behaviours = new WeakMap<object, Map<string, Behaviour | null>>();
function behaviourOf(it: IndexTabular | undefined, word: string): Behaviour | undefined {
  const key = it ?? behaviours;
  let cache = behaviours.get(key);
  if (!cache) behaviours.set(key, (cache = new Map()));
  if (METASTASIS.test(word)) return 'secondary';
  if (NEOPLASM.test(word)) return 'unspecified';
  const hit = cache.get(word);
  if (hit !== undefined) return hit ?? undefined;
  let out: Behaviour | null = null;
  if (it) {
    for (const name of new Set([word, word.replace(/e?s$/, ''), word.replace(/s$/, '')])) {
      for (const m of it.mainTerms(name)) {
        const ref = `${it.seeOf(m)} ${it.seeAlsoOf(m)}`.toLowerCase();
        // A reference to the table, by site or at a site it names ("Neoplasm, connective tissue, malignant").
        if (!/^\s*neoplasm\b/.test(ref.trim())) continue;
        out = BY_REFERENCE.find(([re]) => re.test(ref))?.[1] ?? null;
        if (out) break;
      }
      if (out) break;
    }
  }
  cache.set(word, out);
  return out ?? undefined;
}

// Adjectives of a site the table names by its noun ("rectal" adenocarcinoma: the rectum).
const SITE_ADJECTIVES: Record<string, string> = {
  rectal: 'rectum',
  renal: 'kidney',
  hepatic: 'liver',
  pulmonary: 'lung',
  gastric: 'stomach',
  colonic: 'colon',
  pancreatic: 'pancreas',
  ovarian: 'ovary',
  prostatic: 'prostate',
  uterine: 'uterus',
  endometrial: 'endometrium',
  esophageal: 'esophagus',
  oesophageal: 'esophagus',
  laryngeal: 'larynx',
  pharyngeal: 'pharynx',
  mammary: 'breast',
  cerebral: 'brain',
  testicular: 'testis',
  bronchial: 'bronchus',
  duodenal: 'duodenum',
  vesical: 'bladder',
  thyroidal: 'thyroid',
  cutaneous: 'skin',
  osseous: 'bone',
  gallbladder: 'gallbladder',
  anal: 'anus',
  vulvar: 'vulva',
  vaginal: 'vagina',
  penile: 'penis',
  lingual: 'tongue',
  tonsillar: 'tonsil',
  adrenal: 'adrenal',
  biliary: 'biliary',
};

/** Site names of the table's rows, lower case, each to its rows (one number, or several in an array), built once per thread. */
const sitesCache = new WeakMap<TermRows, Map<string, number | number[]>>();
function sitesOf(rows: TermRows): Map<string, number | number[]> {
  let out = sitesCache.get(rows);
  if (out) return out;
  out = new Map();
  for (let i = 1; i < rows.size; i++) {
    // "sigmoid, sigmoidal", "abdomen, abdominal": a later comma part is a name when it is a form of
    // the first; "lingula, lung" is the lingula (of the lung).
    const parts = rows
      .titleOf(i)
      .toLowerCase()
      .replace(/\s+(nec|nos)$/, '')
      .split(/,\s*/);
    const names = [parts[0], ...parts.slice(1).filter((p) => !/\s/.test(p) && p.slice(0, 3) === parts[0].slice(0, 3))];
    // "upper-outer quadrant" as a note writes it, "upper outer quadrant".
    if (parts[0].includes('-')) names.push(parts[0].replace(/-/g, ' '));
    for (const name of names) {
      if (name.length < 3) continue;
      const had = out.get(name);
      out.set(name, had === undefined ? i : typeof had === 'number' ? [had, i] : [...had, i]);
    }
  }
  sitesCache.set(rows, out);
  return out;
}

/**
 * The site rows a run of words names, each with the words of the run its name and its parents' names
 * cover; within the part of the table `scope` heads, when given.
 */
function siteIn(rows: TermRows, words: readonly string[], scope?: number): number | undefined {
  const sites = sitesOf(rows);
  const hits = new Map<number, Set<number>>();
  for (let i = 0; i < words.length; i++) {
    for (let n = Math.min(4, words.length - i); n >= 1; n--) {
      const w = n === 1 ? words[i] : words.slice(i, i + n).join(' ');
      for (const cand of n === 1 ? [w, w.replace(/s$/, ''), SITE_ADJECTIVES[w] ?? w] : [w]) {
        const found = sites.get(cand);
        if (found === undefined) continue;
        for (const row of typeof found === 'number' ? [found] : found) {
          if (scope !== undefined && (row < scope || row >= rows.end[scope])) continue;
          const set = hits.get(row) ?? new Set();
          for (let k = 0; k < n; k++) set.add(i + k);
          hits.set(row, set);
        }
      }
    }
  }
  let best: number | undefined;
  let bestScore = 0;
  for (const [row, own] of hits) {
    const covered = new Set(own);
    for (let p = rows.parentOf(row); p > 0; p = rows.parentOf(p)) for (const k of hits.get(p) ?? []) covered.add(k);
    const nemod = rows.nemodOf(row).toLowerCase();
    for (let k = 0; k < words.length; k++) if (!covered.has(k) && words[k].length > 2 && nemod.includes(words[k])) covered.add(k);
    const score = covered.size * 4 - rows.level[row];
    if (score > bestScore) {
      bestScore = score;
      best = row;
    }
  }
  return best;
}

/** Words a site may take after the neoplasm: "the upper outer quadrant of the left breast". */
const SITE_WORDS = 8;

/** The words of the site a neoplasm at word i names: after it ("of the sigmoid colon") or before it ("liver metastases"). */
function siteWords(lower: readonly string[], i: number, after: boolean): [number, number] | undefined {
  if (after) {
    let j = i + 1;
    while (j < lower.length && LINK.has(lower[j]) && j - i <= 4) j++;
    if (j === i + 1 && !['of', 'in', 'to'].includes(lower[j - 1] ?? '')) return undefined;
    let k = j;
    while (k < lower.length && k - j < SITE_WORDS && !STOP.test(lower[k])) k++;
    return k > j ? [j, k] : undefined;
  }
  let k = i;
  while (k > 0 && SKIP_BEFORE.has(lower[k - 1])) k--;
  let j = k;
  while (j > 0 && k - j < 4 && !STOP.test(lower[j - 1]) && !SKIP_BEFORE.has(lower[j - 1])) j--;
  return k > j ? [j, k] : undefined;
}

/** Whether row `a` lies under row `b` in the table. */
function below(rows: TermRows, a: number, b: number): boolean {
  for (let p = rows.parentOf(a); p > 0; p = rows.parentOf(p)) if (p === b) return true;
  return false;
}

const siteName = (rows: TermRows, i: number) =>
  rows
    .titleOf(i)
    .toLowerCase()
    .replace(/\s+(nec|nos)$/, '');

/** Whether two rows name one site, the first under a more specific parent ("nose, nasal > skin" and "skin NOS"). */
function sameSite(rows: TermRows, a: number, b: number): boolean {
  return siteName(rows, a) === siteName(rows, b) && rows.level[a] > rows.level[b];
}

interface Stated {
  behaviour: Behaviour;
  sentence: number;
  /** the neoplasm's word */
  at: number;
  row: number;
  span: Span;
}

/**
 * Neoplasms the note states with a site: coded by the Neoplasm Table's row for the site and the
 * column of the behaviour; a code the note's words gave the same neoplasm otherwise ("metastases to
 * the liver" read as C22.9, "benign neoplasm" as D36.9) gives way. A malignancy excised or
 * treated with no evidence of disease left is history, for the history rule to code (Z85).
 */
export function applyNeoplasmTable(cands: Candidates): void {
  const { tables, sentences, it, table, defaults } = cands.ctx;
  if (!tables) return;
  const rows = tables.neoplasms;
  const found: Stated[] = [];
  for (let si = 0; si < sentences.length; si++) {
    const s = sentences[si];
    const lower = s.lower;
    let asserted: ReturnType<typeof assertWords> | undefined;
    for (let i = 0; i < lower.length; i++) {
      const w = lower[i];
      if (!isNeoWord(s.ids[i])) continue;
      let behaviour = behaviourOf(it, w);
      if (!behaviour) continue;
      asserted ??= assertWords(s.words);
      if (asserted[i] !== 'present' && asserted[i] !== 'historical') continue;
      const adjective = ADJECTIVE[lower[i - 1]] ?? ADJECTIVE[lower[i - 2]];
      if (lower[i + 1] === 'in' && lower[i + 2] === 'situ') behaviour = 'in situ';
      else if (behaviour !== 'secondary' && adjective && adjective !== 'secondary') behaviour = adjective;
      // "metastatic carcinoma to the liver": the site it went to is a secondary one.
      else if (adjective === 'secondary' && /^(to|into|involving)$/.test(lower[i + 1] ?? '')) behaviour = 'secondary';
      if (/\buncertain behaviou?r\b/.test(lower.slice(i, i + 5).join(' '))) behaviour = 'uncertain';
      // "metastatic from the breast": the site it came from is the primary.
      let from = false;
      if ((behaviour === 'secondary' || adjective === 'secondary') && lower[i + 1] === 'from') {
        behaviour = 'primary';
        from = true;
      }
      // "metastasis of prostate adenocarcinoma": what follows "of" is where it came from, not where it went.
      if (behaviour === 'secondary' && lower[i + 1] === 'of' && lower.slice(i + 2, i + 6).some((x) => NEO_WORD.test(x))) continue;
      // "adenocarcinoma in the maxillary sinus" beside a metastasis: the site it reached is not a primary one.
      const inMetastasis = behaviour === 'primary' && lower.some((x) => METASTASIS.test(x));
      const scope = behaviour === 'secondary' || from ? undefined : scopeOf(it, rows, lower, i);
      const order = behaviour === 'secondary' || from || ['of', 'in'].includes(lower[i + 1] ?? '') ? [true, false] : [false, true];
      for (const after of order) {
        if (after && inMetastasis && lower[i + 1] !== 'of') continue;
        const range = from ? siteWords(lower, i + 1, true) : siteWords(lower, i + (behaviour === 'in situ' && after ? 2 : 0), after);
        if (!range) continue;
        // In the part of the table the reference names; a site not listed there has its own row (the table's note to "connective tissue").
        let site =
          (scope === undefined ? undefined : siteIn(rows, lower.slice(range[0], range[1]), scope)) ??
          siteIn(rows, lower.slice(range[0], range[1]));
        if (site === undefined) continue;
        // "skin cancer on the nose", "skin cancer of the nose": site words on both sides name one
        // site together (skin, nose), read when the table has it under the site of either side.
        const there = from || behaviour === 'secondary' ? undefined : siteWords(lower, i, !after);
        const deeper = there && siteIn(rows, lower.slice(Math.min(range[0], there[0]), Math.max(range[1], there[1])));
        if (deeper !== undefined && deeper !== site && (below(rows, deeper, site) || sameSite(rows, deeper, site))) site = deeper;
        const row = morphologyRow(rows, site, new Set(lower));
        const a = Math.min(i, range[0]);
        const b = Math.max(i, range[1] - 1);
        found.push({ behaviour, sentence: si, at: i, row, span: { start: s.starts[a], end: s.ends[b] } });
        break;
      }
      // "Liver, biopsy: metastatic adenocarcinoma from the colon": the heading's site is where it went.
      const went = from ? headingSite(lower, i) : undefined;
      const row = went && siteIn(rows, lower.slice(went[0], went[1]));
      if (went && row !== undefined)
        found.push({ behaviour: 'secondary', sentence: si, at: i, row, span: { start: s.starts[went[0]], end: s.ends[i] } });
    }
  }
  if (!found.length) return;
  const k = (b: Behaviour) => NEOPLASM_COLUMNS.indexOf(b);
  const neoplasms = cands.list.filter((c) => /^(C|D[0-4])/.test(c.code));
  const statedIn = new Map<number, { present: Set<string>; negated: Set<string> }>();
  for (const f of found) {
    const s = sentences[f.sentence];
    const cell = cellOf(rows, f.row, k(f.behaviour));
    if (!cell) continue;
    // A cell the table in force holds as billable is the code; else its billable child the sentence states best.
    const own = table.indexOf(cell.replace(/[.-]/g, ''));
    let index = own !== undefined && table.billableAt(own) ? own : undefined;
    if (index === undefined) {
      let stated = statedIn.get(f.sentence);
      if (!stated)
        statedIn.set(f.sentence, (stated = { present: new Set([...s.ids.flatMap(stemsOfId), ...(defaults ?? [])]), negated: new Set() }));
      // The site the coder looked up is stated too ("right upper lobe": the row "lung, upper lobe").
      const site = rows
        .pathOf(f.row)
        .toLowerCase()
        .split(/[\s,]+/)
        .slice(2)
        .flatMap((w) => wordStems(w));
      index = completeCode(table, cell, { present: new Set([...stated.present, ...site]), negated: stated.negated });
    }
    if (index === undefined) continue;
    if (f.behaviour === 'primary') index = statedTypeSibling(table, index, new Set(s.lower));
    const code = table.codeAt(index);
    // The coder already read this code and set it aside (historical, negated, a relative's): so it stays.
    const had = cands.get(code);
    if (had && !had.final && had.assertion !== 'present') continue;
    // What the note's words gave this neoplasm otherwise: a neoplasm code over the same words.
    const rivals = neoplasms.filter((c) => c.final && c.code !== code && c.spans.some((sp) => overlaps(sp, f.span)));
    // An Index subterm for the histology ("Carcinoma, hepatocellular" C22.0; "Tumor, odontogenic"
    // D16.5), or a Tabular title the note states ("Merkel cell carcinoma of lip" C4A.0), is more
    // than the site's row.
    if (
      rivals.some(
        (c) => (c.origin === 'index' || c.origin === 'description') && !/unspecified|not specified/i.test(table.descriptionAt(c.index)),
      )
    )
      continue;
    // A code of the same category the note states elsewhere, with what this cell leaves unspecified (the side), says more (I.B.2).
    if (
      /\bunspecified\b/i.test(table.descriptionAt(index)) &&
      neoplasms.some((c) => c.final && c.code.startsWith(code.slice(0, 3)) && !/\bunspecified\b/i.test(table.descriptionAt(c.index)))
    )
      continue;
    const title = `Neoplasm, ${rows.titleOf(f.row)}, ${f.behaviour}`;
    const made = cands.assign(code, `Neoplasm Table (guideline I.C.2): ${title}`, [], [f.span]);
    if (!made) continue;
    for (const c of rivals)
      cands.discard(c, `Discarded: the Neoplasm Table codes this neoplasm by its site and behaviour (${title}: ${table.dottedAt(index)}).`);
    if (f.behaviour === 'primary' && isHistory(s, f.at)) {
      made.assertion = 'historical';
      cands.discard(
        made,
        'Discarded: historical, not a current condition (excised or treated, no evidence of disease: guideline I.C.2.d).',
      );
    }
  }
}

const seeRows = new WeakMap<TermRows, Map<number, number>>();

/** The cell of a column at a row, or (an empty cell of a subterm) at the nearest row above with one. */
function cellOf(rows: TermRows, row: number, k: number): string {
  const own = rows.cellOf(row, k);
  if (own) return own;
  if ([0, 1, 2, 3, 4, 5].some((c) => rows.cellOf(row, c))) return '';
  let seen = seeRows.get(rows);
  if (!seen) seeRows.set(rows, (seen = new Map()));
  let to = seen.get(row);
  if (to === undefined) {
    const see = rows.seeOf(row);
    to = (see ? rows.resolvePath(see.replace(/\s*\([^)]*\)/g, '')) : undefined) ?? -1;
    seen.set(row, to);
  }
  return to >= 0 && to !== row ? rows.cellOf(to, k) : '';
}

/** I.C.2.d: the malignancy at word i was excised or treated, and nothing now is (no evidence of disease, no treatment). */
export function isHistory(s: Sentence, i: number): boolean {
  const lower = s.lower;
  if (!lower.some((w) => GONE_FIRST.has(w))) return false;
  const text = lower.join(' ');
  const historyOf = /\b(history of|hx of|h\/o)\b/.test(lower.slice(Math.max(0, i - 6), i).join(' '));
  const gone = lower.some((_, j) => [1, 2, 3, 4, 5].some((n) => GONE.test(lower.slice(j, j + n).join(' '))));
  const removed = lower.some((w) => REMOVED.test(w)) || /\bstatus post\b/.test(text);
  if (lower.some((w, j) => TREATED_NOW.test(w) && !['no', 'without', 'not'].includes(lower[j - 1] ?? ''))) return false;
  return gone && (removed || historyOf);
}

const overlaps = (a: Span, b: Span) => a.start < b.end && b.start < a.end;
