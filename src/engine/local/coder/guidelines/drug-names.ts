import type { TermRows } from '../../../../terminology/term-tables.js';
import type { Sentence } from '../sentence-split.js';
import { DRUG_BRANDS } from './drug-brands.js';
import { DRUG_CLASSES } from './drug-classes.js';
import { INDUCED, phraseAt } from './drug-cues.js';

/**
 * The names a Table of Drugs title gives its substance, lower case. The Table inverts its titles
 * as the Index does: after the comma stands either another spelling of the substance ("Aluminium,
 * aluminum", "Busulfan, busulphan") or a word that qualifies it ("Decongestant, nasal",
 * "Glycoside, cardiac", "Relaxant, muscle"). A qualifier names no substance alone ("nasal bone",
 * "cardiac arrest", "muscle pain"): it is read only before its head, as a note says it ("nasal
 * decongestant", "cardiac glycoside"). Another spelling shares the head's first letters.
 */
export function titleNames(title: string): string[] {
  const parts = title.split(/,\s*/).filter((p) => p.length > 0);
  if (parts.length < 2) return [title];
  const head = parts[0];
  const names = [title, head];
  for (const part of parts.slice(1)) {
    if (part.slice(0, 3) === head.slice(0, 3) || head.includes(part) || part.includes(head)) names.push(part);
    else if (parts.length === 2) names.push(`${part} ${head}`);
  }
  return names;
}

// Substances of the table that are words of any note ("blood", "water"): never read as a substance taken.
const NOT_SUBSTANCES = new Set([
  'blood',
  'plasma',
  'serum',
  'water',
  'air',
  'oxygen',
  'food',
  'fluid',
  'fluids',
  'saline',
  'bile',
  'urine',
  'milk',
]);
// The Table's rows for a drink: ethyl alcohol (a coder reads "alcohol" a person drinks so).
export const BEVERAGE_ROW = 'Alcohol, beverage';

/** The substances' names, lower case, each to its rows (a combination product to each ingredient's). */
interface Names {
  rows: Map<string, number>;
  /** brand names of combination products: each ingredient's row */
  combos: Map<string, number[]>;
  /** short names ("wasp", "bee") read only beside a sting or bite */
  venoms: Map<string, number>;
  /** the first word of every name: a word that starts none is passed by one lookup */
  starts: Set<string>;
}

/**
 * The substances' names, lower case, each to its first row (the title and its comma parts), built
 * once per thread: maps of strings to numbers, no object per name (the service's RSS).
 */
const namesCache = new WeakMap<TermRows, Names>();

function namesOf(drugs: TermRows): Names {
  let n = namesCache.get(drugs);
  if (n) return n;
  const rows = new Map<string, number>();
  const venoms = new Map<string, number>();
  for (let i = 0; i < drugs.size; i = drugs.end[i]) {
    // "Tablets", "Drug NEC": an unspecified drug (T50.90-) names no substance.
    if (drugs.cellOf(i, 0).startsWith('T50.90')) continue;
    const title = drugs
      .titleOf(i)
      .toLowerCase()
      .replace(/\s+nec$/, '');
    for (const name of new Set(titleNames(title))) {
      if (NOT_SUBSTANCES.has(name) || rows.has(name)) continue;
      // A name of one short word ("tea", "gas") is too loose to read, but a venomous animal's beside a sting.
      if (!name.includes(' ') && name.length < 5) {
        if (drugs.cellOf(i, 0).startsWith('T63')) venoms.set(name, i);
        continue;
      }
      rows.set(name, i);
    }
  }
  // A drug the Table lists only by its class: its class's row.
  for (const c of DRUG_CLASSES) {
    const row = drugs.resolvePath(c.row);
    if (row !== undefined) for (const name of c.drugs) if (!rows.has(name)) rows.set(name, row);
  }
  // Drinks: ethyl alcohol.
  const beverage = drugs.resolvePath(BEVERAGE_ROW);
  if (beverage !== undefined) for (const drink of DRINK_NAMES) if (!rows.has(drink)) rows.set(drink, beverage);
  // A brand: its ingredients' rows.
  const combos = new Map<string, number[]>();
  for (const [brand, generics] of DRUG_BRANDS) {
    if (rows.has(brand)) continue;
    const found = generics.map((g) => rows.get(g)).filter((r) => r !== undefined);
    if (found.length !== generics.length) continue;
    if (found.length === 1) rows.set(brand, found[0]);
    else combos.set(brand, found);
  }
  const starts = new Set<string>();
  for (const names of [rows.keys(), combos.keys(), venoms.keys()]) for (const name of names) starts.add(name.split(' ')[0]);
  n = { rows, combos, venoms, starts };
  namesCache.set(drugs, n);
  return n;
}
const DRINK_NAMES = ['beer', 'beers', 'wine', 'vodka', 'whiskey', 'whisky', 'liquor', 'tequila'];

/** A substance the note names: its row in the table and the words that name it. */
export interface Substance {
  row: number;
  sentence: number;
  start: number;
  end: number;
}

/** The substances a sentence names (the longest name at each word, up to four words), with "-induced" words split. */
export function substancesIn(drugs: TermRows, s: Sentence, si: number, venom = false): Substance[] {
  const { rows, combos, venoms, starts } = namesOf(drugs);
  const out: Substance[] = [];
  const lower = s.lower;
  for (let i = 0; i < lower.length; i++) {
    const w = lower[i];
    const head = w.includes('-') ? (INDUCED.exec(w)?.[1] ?? w) : w;
    if (!starts.has(head)) continue;
    for (let n = Math.min(4, lower.length - i); n >= 1; n--) {
      const phrase = n === 1 ? head : phraseAt(lower, i, n);
      const row = rows.get(phrase) ?? (venom && n === 1 ? venoms.get(phrase) : undefined);
      const several = row === undefined && n === 1 ? combos.get(phrase) : undefined;
      if (row === undefined && !several) continue;
      for (const r of several ?? [row!]) out.push({ row: r, sentence: si, start: i, end: i + n - 1 });
      i += n - 1;
      break;
    }
  }
  return out;
}
