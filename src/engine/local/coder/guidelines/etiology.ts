import type { CodeRow, CodeTable } from '../../../../terminology/code-table.js';
import type { IndexTabular } from '../../../../terminology/index-tabular.js';
import { stemWords } from '../../../../terminology/text-normalize.js';
import { type Candidate, type Candidates, dotted, sentenceAt } from '../candidate.js';
import { assertWords } from '../assertions.js';
import { completeCode, fitOf, type Stated } from '../complete-code.js';
import { statedAxis } from './manifestation-axes.js';
import { rangeHeadStated } from './range-head.js';
import { refCover } from './tabular-excludes.js';
import { notesUpOf } from './tabular-notes.js';

/** The stems of the sentences holding a candidate, with the note's defaults (encounter, closed, displaced). */
export function statedAround(cands: Candidates, c: Candidate): Stated {
  const present = new Set<string>(cands.ctx.defaults ?? []);
  for (const span of c.spans) {
    const s = sentenceAt(cands.ctx, span.start, span.end);
    if (s) for (const stem of s.stems.stems) present.add(stem);
  }
  return { present, negated: new Set() };
}

/** A title's first comma part, lower case, without its nonessential modifiers: "Dementia, in, ..." -> "dementia". */
export const readTitleHead = (title: string) =>
  title
    .split(',')[0]
    .replace(/\([^)]*\)/g, ' ')
    .trim()
    .toLowerCase();

/**
 * The etiology/manifestation convention (I.A.13) and "use additional code" (I.A.16), before the
 * combination rules:
 * - an Index code followed by a manifestation code in brackets ("Dementia, in, Parkinson's disease
 *   G20 [F02.80]") codes both, the manifestation completed by what the note states;
 * - a code whose Tabular notes say "use additional code" or "code first" for a condition the note
 *   states, set aside only as less specific than it (the same words), is coded too: the pair
 *   needs both codes ("Anemia in chronic kidney disease": D63.1 and the N18 stage).
 */
export function applyEtiologyPairs(cands: Candidates): void {
  const { it, table } = cands.ctx;
  if (!it) return;
  for (const c of cands.finals()) {
    const term = c.found?.mention.indexTerm ?? cands.ctx.indexTerms?.get(c.index);
    const brackets = term === undefined ? '' : it.manifOf(term);
    if (!brackets) continue;
    let main = term!;
    while (main > 0 && it.level[main] > 0) main--;
    // The codes the pair now says: the main term's own ("Parkinsonism" G20), and the code the
    // bracketed subterm's words have as a main term of their own ("Parkinsonism > dementia
    // [F02.80]": "Dementia" F03.90, also its "see also").
    const wholes = [main, ...it.mainTerms(readTitleHead(it.titleOf(term!))), ...it.mainTerms(readTitleHead(it.seeAlsoOf(term!)))]
      .map((t) => it.codeOf(t).replace(/[.-]/g, ''))
      .filter((code, k, all) => code && all.indexOf(code) === k);
    const path = main === term ? it.titleOf(main) : `${it.titleOf(main)} > ... > ${it.titleOf(term!)}`;
    for (const m of brackets.split(' ')) {
      const stated = statedAround(cands, c);
      const completed = completeCode(table, m, stated);
      if (completed === undefined) continue;
      const index = statedAxis(table, completed, stated);
      const made = cands.assign(
        table.codeAt(index),
        `manifestation code the Alphabetic Index gives in brackets with ${dotted(c.code)} (${path}); sequenced after it (I.A.13)`,
        [c],
      );
      if (!made || wholes.length === 0) continue;
      // Those codes read from the same sentence are what the pair now says.
      for (const f of cands.finalsIn(...wholes)) {
        if (
          f === made ||
          f === c ||
          !f.spans.some((s) => c.spans.some((o) => sentenceAt(cands.ctx, s.start, s.end) === sentenceAt(cands.ctx, o.start, o.end)))
        )
          continue;
        cands.discard(f, `Discarded: the Alphabetic Index codes ${path} as ${dotted(c.code)} with ${dotted(made.code)} (I.A.13).`);
      }
    }
  }
  for (const c of cands.finals()) {
    for (const note of notesUpOf(cands.ctx, c.code)) {
      if (note.kind !== 'ua' && note.kind !== 'cf') continue;
      for (const ref of note.refs) {
        const covers = refCover(ref);
        const other = cands.list.find(
          (o) => !o.final && o.assertion === 'present' && o.origin !== 'learned' && o.found?.lessSpecificThan === c.index && covers(o.code),
        );
        if (other) {
          cands.assign(
            other.code,
            `${dotted(c.code)} says "${note.kind === 'ua' ? 'use additional code' : 'code first'}: ${note.text}" and the note states it (I.A.13, I.A.16)`,
            [],
            other.spans,
          );
          continue;
        }
        if (note.kind !== 'ua' || cands.list.some((o) => o.final && covers(o.code))) continue;
        const added = statedInRange(cands, c, ref);
        if (added !== undefined)
          cands.assign(
            table.codeAt(added),
            `${dotted(c.code)} says "use additional code: ${note.text}" and its sentence states which (I.A.16)`,
            [c],
          );
      }
    }
  }
}

// Title words that tell no code of a range from another.
const NEUTRAL_RANGE = new Set(stemWords(['other', 'unspecified', 'specified', 'not', 'elsewhere', 'classified']).stems);
const MAX_RANGE = 40;

/**
 * The code of a "use additional code" range (one category's "R13.11-R13.19", or "N18.1-N18.6")
 * that the sentence of `c` states: the billable code whose title has the most words that tell it
 * from the others of the range ("oropharyngeal" of "Dysphagia, oropharyngeal phase"; "4" of
 * "Chronic kidney disease, stage 4"), when one has more than every other and its title fits the
 * sentence; undefined otherwise (the type or stage is not stated).
 */
function statedInRange(cands: Candidates, c: Candidate, ref: string): number | undefined {
  const { table } = cands.ctx;
  const range = rangeOf(table, ref);
  if (!range) return undefined;
  const { rows, titles } = range;
  if (rows.length === 1) return nameStated(cands, c, rows[0]) ? table.indexOf(rows[0].code) : undefined;
  const stated = presentAround(cands, c);
  const asking = new Set(
    stemWords(
      table
        .descriptionAt(c.index)
        .toLowerCase()
        .split(/[\s,()]+/),
    ).stems,
  );
  if (!rangeHeadStated(titles, asking, NEUTRAL_RANGE, stated.present)) return undefined;
  const telling = (stem: string) => !NEUTRAL_RANGE.has(stem) && titles.some((t) => !t.has(stem));
  let best = -1;
  let bestCount = 0;
  let tie = false;
  titles.forEach((t, k) => {
    let n = 0;
    for (const stem of t) if (stated.present.has(stem) && telling(stem)) n++;
    if (n > bestCount) [best, bestCount, tie] = [k, n, false];
    else if (n === bestCount && n > 0) tie = true;
  });
  if (best < 0 || tie || fitOf(rows[best].description, stated) <= 0) return undefined;
  return table.indexOf(rows[best].code);
}

interface Range {
  rows: CodeRow[];
  /** each row's title stems */
  titles: Array<Set<string>>;
}
// The billable codes of a reference and their titles' stems, read once per thread and reference
// (the Tabular holds a bounded set of references; a full cache starts again).
const ranges = new WeakMap<CodeTable, Map<string, Range | null>>();
const CACHED_RANGES = 5_000;

/** The billable codes a "use additional code" reference covers within its category, when they are 1 to MAX_RANGE. */
function rangeOf(table: CodeTable, ref: string): Range | undefined {
  let memo = ranges.get(table);
  if (!memo) ranges.set(table, (memo = new Map()));
  let out = memo.get(ref);
  if (out === undefined) {
    out = null;
    const lo = ref.split('-')[0].replace('.', '');
    if (lo.length >= 3) {
      const covers = refCover(ref);
      const rows = table.descendantsOf(lo.slice(0, 3)).filter((r) => r.billable && covers(r.code.replace('.', '')));
      if (rows.length >= 1 && rows.length <= MAX_RANGE)
        out = { rows, titles: rows.map((r) => new Set(stemWords(r.description.toLowerCase().split(/[\s,()]+/)).stems)) };
    }
    if (memo.size >= CACHED_RANGES) memo.clear();
    memo.set(ref, out);
  }
  return out ?? undefined;
}

// Words of a name that tell nothing of the condition: the status is what the note asks to identify.
const NEUTRAL_NAME = new Set(stemWords(['status', 'NOS', 'other', 'unspecified', 'specified', 'of', 'on', 'for']).stems);

/**
 * Whether the sentence of `c` states, beside `c`'s own words, the one code a "use additional code"
 * note names ("code to identify dialysis status (Z99.2)"): every telling word of its title or of
 * one of its inclusion terms ("Hemodialysis status": "on hemodialysis"), asserted present.
 */
function nameStated(cands: Candidates, c: Candidate, row: { code: string; description: string }): boolean {
  const names = namesOf(cands.ctx.it!, row);
  if (names.length === 0) return false;
  const stated = presentAround(cands, c, true);
  return names.some((stems) => stems.every((st) => stated.present.has(st)));
}

// A code's names as telling stems, read once per thread (the Tabular names a bounded set of codes).
const names = new Map<string, string[][]>();

/** The telling stems of a code's title and of each of its Tabular inclusion terms; names without any are left out. */
function namesOf(it: IndexTabular, row: { code: string; description: string }): string[][] {
  let out = names.get(row.code);
  if (!out) {
    if (names.size >= 5_000) names.clear();
    const texts = [row.description, ...it.notes(dotted(row.code)).flatMap((n) => (n.kind === 'inc' ? [n.text] : []))];
    out = texts
      .map((name) => stemWords(name.toLowerCase().split(/[\s,()]+/)).stems.filter((st) => !NEUTRAL_NAME.has(st)))
      .filter((stems) => stems.length > 0);
    names.set(row.code, out);
  }
  return out;
}

/**
 * The stems the sentences holding a candidate state as present (a denied word states nothing);
 * with `besides`, only those outside the candidate's own evidence (what it states beside it).
 */
function presentAround(cands: Candidates, c: Candidate, besides = false): Stated {
  const present = new Set<string>();
  for (const span of c.spans) {
    const s = sentenceAt(cands.ctx, span.start, span.end);
    if (!s) continue;
    const st = s.stems;
    const assertions = assertWords(s.words);
    const own = (w: number) => besides && c.spans.some((o) => s.starts[w] < o.end && s.ends[w] > o.start);
    st.stems.forEach((stem, k) => {
      if (assertions[st.from[k]] === 'present' && !own(st.from[k])) present.add(stem);
    });
  }
  return { present, negated: new Set() };
}
