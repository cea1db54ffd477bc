import type { CodeTable } from '../../../terminology/code-table.js';
import { toUndotted } from '../../../terminology/icd10-file.js';
import { wordStems } from '../../../terminology/text-normalize.js';

/** What the note states around a mention, as the completion of a code reads it. */
export interface Stated {
  /** stems the note states as present (with the defaults: encounter, closed, displaced) */
  present: { has(stem: string): boolean };
  /** stems the note denies ("no dyskinesia") */
  negated: ReadonlySet<string>;
}

// Words of a title that say nothing the note must state.
const NEUTRAL = new Set(['unspecifi', 'other', 'nec', 'current', 'injuri', 'encount', 'mention', 'not', 'elsewher', 'classifi', 'specifi']);

/** A title word as a note must state it: plainly, after "without", or after "unspecified as to". */
interface TitleStem {
  stem: string;
  without: boolean;
  /** "unspecified as to perforation": fits a note that says nothing of it */
  unstated?: boolean;
  /** "unspecified eye": fits a note that states no side */
  sideOpen?: boolean;
  /** "upper limb" of "right upper limb": the site a stated side names, as "unspecified upper limb" names it */
  sideSite?: boolean;
  /** "right" of "right upper limb": one side, which a note that states both sides does not state alone */
  oneSide?: boolean;
}
const SIDES = ['right', 'left', 'bilater', 'both'].flatMap((w) => wordStems(w));
const SIDE_WORDS = new Set(['right', 'left', 'bilateral']);
const BILATERAL = wordStems('bilateral')[0];
// The generic sites a side names in a title ("right upper limb", "left eye", "right ear"): the
// category names them already; a specific site ("right femur") the note must state.
const SIDE_SITES = new Set(['eye', 'ear', 'upper', 'lower', 'limb', 'extremity', 'side'].flatMap((w) => wordStems(w)));
const titleCache = new Map<string, TitleStem[]>();

/** The stems of a title, each marked when it follows "without" or "unspecified as to" (until the next comma). */
function titleStems(title: string): TitleStem[] {
  let out = titleCache.get(title);
  if (out) return out;
  out = [];
  const clauses = title.toLowerCase().split(',');
  for (let c = 0; c < clauses.length; c++) {
    let without = false;
    let unstated = false;
    const words = clauses[c].trim().split(/\s+/);
    // A later clause "unspecified eye", "unspecified side": what the note left open; its words
    // fit only a note that states no side ("in both eyes" is not "unspecified eye").
    const open = c > 0 && words[0] === 'unspecified' && words[1] !== 'as';
    // A later clause "right upper limb", "left eye": its generic site is the one "unspecified upper
    // limb" names; the note that states the side need not name it again ("carpal tunnel syndrome, right").
    const sided = c > 0 && SIDE_WORDS.has(words[0]);
    for (let k = 0; k < words.length; k++) {
      const w = words[k];
      if (w === 'without') {
        without = true;
        continue;
      }
      // "without cholecystitis with obstruction", "without complications in remission" (E11.A):
      // a later "with" or "in" states something again.
      if (w === 'with' || w === 'in') without = false;
      if (w === 'unspecified' && words[k + 1] === 'as' && words[k + 2] === 'to') {
        unstated = true;
        k += 2;
        continue;
      }
      for (const stem of wordStems(w))
        if (!out.some((o) => o.stem === stem))
          out.push(
            unstated
              ? { stem, without, unstated }
              : open
                ? { stem, without, sideOpen: true }
                : sided
                  ? k > 0
                    ? { stem, without, sideSite: SIDE_SITES.has(stem) }
                    : { stem, without, oneSide: w !== 'bilateral' }
                  : { stem, without },
          );
    }
  }
  if (titleCache.size < 100_000) titleCache.set(title, out);
  return out;
}

/**
 * How well a title fits what the note states: +1 for each stated word, -1 for each word the note
 * does not state (a site, a side, a type), 0 for neutral words; a "without X" clause fits when X
 * is denied, and is against it when X is stated; "unspecified as to X" fits when the note says
 * nothing of X, either way.
 */
export function fitOf(title: string, stated: Stated): number {
  let s = 0;
  for (const { stem, without, unstated, sideOpen, sideSite, oneSide } of titleStems(title)) {
    if (unstated) s += stated.present.has(stem) || stated.negated.has(stem) ? -1 : 1;
    else if (sideOpen) s += stated.present.has(stem) && !statesSide(stated) ? 1 : 0;
    else if (sideSite) s += stated.present.has(stem) ? 1 : 0;
    // ("Carpal tunnel syndrome in both wrists, right worse than left": the bilateral code, I.B.13.)
    else if (oneSide && stated.present.has(stem) && stated.present.has(BILATERAL)) continue;
    else if (without) {
      if (stated.negated.has(stem)) s += 1;
      else if (stated.present.has(stem)) s -= 1;
    } else if (stated.present.has(stem) && !stated.negated.has(stem)) s += 1;
    else if (!NEUTRAL.has(stem)) s -= 1;
  }
  return s;
}

/** What a note states with a code read: its stems, and the words its title asserts (not "without" or "unspecified as to" ones). */
export function statedWithTitle(stated: Stated, title: string): Stated {
  const asserted = new Set<string>();
  for (const t of titleStems(title)) if (!t.without && !t.unstated && !t.sideOpen) asserted.add(t.stem);
  const { present, negated } = stated;
  return { present: { has: (stem) => present.has(stem) || asserted.has(stem) }, negated };
}

/** Whether the note states a side (SIDES). (No closure in fitOf: a closure there costs every call a context.) */
function statesSide(stated: Stated): boolean {
  for (let k = 0; k < SIDES.length; k++) if (stated.present.has(SIDES[k])) return true;
  return false;
}

/**
 * A code the table in force added after the Index was written (FY2026's E66.811-E66.813 "Obesity,
 * class 1-3"), in the same category as `index`, whose title the note states whole and better:
 * the Index cannot lead to it, the note can.
 */
export function newerFit(table: CodeTable, index: number, stated: Stated, known: (code: string) => boolean): number | undefined {
  const newer = newerIn(table, table.codeAt(index).slice(0, 3), known);
  if (newer.length === 0) return undefined;
  const own = fitOf(table.descriptionAt(index), stated);
  let best: number | undefined;
  let bestFit = own;
  for (const i of newer) {
    const title = table.descriptionAt(i);
    const fit = fitOf(title, stated);
    if (fit > bestFit && fit === statedWords(title, stated)) {
      bestFit = fit;
      best = i;
    }
  }
  return best;
}

/**
 * Whether a code completed from `code` (an Index code, as completeCode reads it) may have a newer
 * fit: its category holds a billable code the Index's Tabular lacks. Known without completing it.
 */
export function mayHaveNewer(table: CodeTable, code: string, known: (code: string) => boolean): boolean {
  const prefix = toUndotted(code.replace(/[.-]/g, ''));
  return prefix.length < 3 || newerIn(table, prefix.slice(0, 3), known).length > 0;
}

const newerCache = new WeakMap<CodeTable, Map<string, number[]>>();

/** The billable codes of a category that the Index's Tabular lacks, found once per table. */
function newerIn(table: CodeTable, category: string, known: (code: string) => boolean): number[] {
  // (The list is made in a function of its own: a closure here would cost every lookup a context.)
  let cache = newerCache.get(table);
  if (!cache) newerCache.set(table, (cache = new Map()));
  let list = cache.get(category);
  if (!list) cache.set(category, (list = newerListOf(table, category, known)));
  return list;
}

function newerListOf(table: CodeTable, category: string, known: (code: string) => boolean): number[] {
  return table
    .descendantsOf(category)
    .filter((r) => r.billable && !known(r.code))
    .map((r) => table.indexOf(r.code)!);
}

/** How many of a title's words the note states. */
function statedWords(title: string, stated: Stated): number {
  let n = 0;
  for (const t of titleStems(title)) if (!t.without && !t.unstated && stated.present.has(t.stem) && !stated.negated.has(t.stem)) n++;
  return n;
}

/**
 * The billable code of the table in force that an Index or Tabular code stands for: the code
 * itself when billable; else (a header, a code written "M25.46-", a FY2023 code the FY2026 table
 * expanded) the billable code below it whose title fits what the note states best (side, 7th
 * character, type), the first in code order on a tie. Undefined when the table holds none.
 */
export function completeCode(table: CodeTable, code: string, stated: Stated): number | undefined {
  const base = code.replace(/[.-]/g, '');
  const own = table.indexOf(base);
  if (own !== undefined && table.billableAt(own)) return own;
  let best: number | undefined;
  let bestFit = -Infinity;
  let bestSaid = 0;
  for (const row of table.descendantsOf(base)) {
    if (!row.billable) continue;
    const fit = fitOf(row.description, stated);
    if (fit < bestFit) continue;
    // Of two that fit as well, the one that states more of the note ("adenomatous and serrated
    // colon polyps" over "colon polyps, unspecified" for "adenomatous colon polyps").
    const said = statedWords(row.description, stated);
    if (fit > bestFit || said > bestSaid) {
      bestFit = fit;
      bestSaid = said;
      best = table.indexOf(row.code);
    }
  }
  return best;
}
