import { DRUG_COLUMNS, type TermRows } from '../../../../terminology/term-tables.js';
import { wordStems } from '../../../../terminology/text-normalize.js';
import { assertWords } from '../assertions.js';
import type { Candidate, Candidates, Span } from '../candidate.js';
import type { Sentence } from '../sentence-split.js';
import { DRUG_BRANDS } from './drug-brands.js';
import { DRUG_CLASSES } from './drug-classes.js';
import {
  ADVERSELY,
  ALCOHOL,
  ASSAULTED,
  CAUSED,
  type Cue,
  INDUCED,
  NOT_CAUSE_BEFORE,
  NOT_PRESCRIBED,
  POISON,
  PROPERLY,
  SELF_HARMED,
  TOXICITY,
  UNDER,
  UNDETERMINED_INTENT,
  VENOM,
  induced,
  isKey,
  matches,
  cueLength,
  noncompliance,
  phraseAt,
} from './drug-cues.js';
import { applyDrugInduced } from './drug-induced.js';
import { titleNames } from './drug-names.js';

// Guideline I.C.19.e, by the FY2026 Table of Drugs and Chemicals: what the note says happened with
// a substance picks the table's column, and the substance's row gives the code.
//  - poisoning (I.C.19.e.5.b): an overdose, a wrong substance or dose, a drug taken with alcohol;
//  - adverse effect (I.C.19.e.5.a): a drug correctly prescribed and properly taken;
//  - underdosing (I.C.19.e.5.c): less taken than prescribed, or stopped by the patient.
type Column = (typeof DRUG_COLUMNS)[number];

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
// How far (in words) a substance may be from the words that say what happened with it.
const NEAR = 8;
// Words of a drug taken as a medicine: a substance the Table lists as a chemical ("Lithium" T56.89-)
// is then its medicinal form ("Lithium, salts" T43.59-).
const MEDICINE = /^(tablets?|pills?|capsules?|mg|dose|doses|prescribed|prescription|medication|medications|level|levels)$/;
// The Table's rows for a drink: ethyl alcohol (a coder reads "alcohol" a person drinks so).
const BEVERAGE_ROW = 'Alcohol, beverage';
const ALCOHOL_ROW = /^T51\.9/;
// Words that may stand between a cause and the drug it names ("due to her cisplatin", "from the oxycodone").
const BEFORE_DRUG =
  /^(the|a|an|his|her|their|my|this|new|newly|recent|recently|prescribed|started|iv|oral|intravenous|home|daily|weekly|first|dose|of|both)$/;
const GIVING = /^(giving|gives|gave|given|administering|administers)$/;

/** The substances' names, lower case, each to its rows (a combination product to each ingredient's). */
interface Names {
  rows: Map<string, number>;
  /** brand names of combination products: each ingredient's row */
  combos: Map<string, number[]>;
  /** short names ("wasp", "bee") read only beside a sting or bite */
  venoms: Map<string, number>;
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
  n = { rows, combos, venoms };
  namesCache.set(drugs, n);
  return n;
}
const DRINK_NAMES = ['beer', 'beers', 'wine', 'vodka', 'whiskey', 'whisky', 'liquor', 'tequila'];

/** A substance the note names: its row in the table and the words that name it. */
interface Substance {
  row: number;
  sentence: number;
  start: number;
  end: number;
}

/** The substances a sentence names (the longest name at each word, up to four words), with "-induced" words split. */
function substancesIn(drugs: TermRows, s: Sentence, si: number, venom = false): Substance[] {
  const { rows, combos, venoms } = namesOf(drugs);
  const out: Substance[] = [];
  const lower = s.lower;
  for (let i = 0; i < lower.length; i++) {
    for (let n = Math.min(4, lower.length - i); n >= 1; n--) {
      const phrase = n === 1 ? (INDUCED.exec(lower[i])?.[1] ?? lower[i]) : phraseAt(lower, i, n);
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

/**
 * The row a substance's words reach: a subterm the sentence also states ("Alcohol, beverage"),
 * following `see` to a row with codes; a chemical taken as a medicine, its medicinal subterm; a
 * drink of alcohol, ethyl alcohol.
 */
function rowFor(drugs: TermRows, row: number, lower: readonly string[], column: Column): number | undefined {
  let at = row;
  for (let hop = 0; hop < 3; hop++) {
    for (;;) {
      const child = drugs.children(at).find((c) => {
        const t = drugs
          .titleOf(c)
          .toLowerCase()
          .replace(/\s+nec$/, '');
        return t.split(/\s+/).every((w) => lower.includes(w));
      });
      if (child === undefined) break;
      at = child;
    }
    if (DRUG_COLUMNS.some((_, k) => drugs.cellOf(at, k))) return medicinal(drugs, at, lower, column);
    const see = drugs.seeOf(at);
    const next = see ? drugs.resolvePath(see) : undefined;
    if (next === undefined) return undefined;
    at = next;
  }
  return undefined;
}

const ADVERSE_COLUMN = DRUG_COLUMNS.indexOf('adverse effect');

/** A row of a chemical ("Lithium") read as the medicine the note gives ("Lithium, salts"), or alcohol drunk as ethanol. */
function medicinal(drugs: TermRows, at: number, lower: readonly string[], column: Column): number {
  if (ALCOHOL_ROW.test(drugs.cellOf(at, 0))) return drugs.resolvePath(BEVERAGE_ROW) ?? at;
  if (drugs.cellOf(at, ADVERSE_COLUMN)) return at;
  const asMedicine = column === 'adverse effect' || column === 'underdosing' || lower.some((w) => MEDICINE.test(w));
  if (!asMedicine) return at;
  return drugs.children(at).find((c) => drugs.cellOf(c, ADVERSE_COLUMN)) ?? at;
}

/** The 7th character of the encounter, as the coder completes every injury code (encounter.ts). */
function seventh(defaults: readonly string[] | undefined): string {
  const d = new Set(defaults ?? []);
  if (wordStems('sequela').some((s) => d.has(s))) return 'S';
  if (wordStems('subsequent').some((s) => d.has(s))) return 'D';
  return 'A';
}

/** A cell of the table completed to a code: placeholders X to six characters, then the encounter. */
function complete(cell: string, ch: string): string | undefined {
  if (!cell || cell.endsWith('-')) return undefined;
  let u = cell.replace('.', '');
  if (!/^T/.test(u)) return cell;
  while (u.length < 6) u += 'X';
  return `${u.slice(0, 3)}.${u.slice(3)}${ch}`;
}

const span = (s: Sentence, start: number, end: number): Span => ({ start: s.starts[start], end: s.ends[end] });
// Not a condition a drug caused: the Table's own codes (T36-T65), external causes, factors (Z).
const NOT_CONDITION = /^([VWXYZ]|T[3-6])/;

/** Final conditions (not injuries, external causes or factors) stated in sentence s before word `before`. */
function conditionsBefore(cands: Candidates, s: Sentence, before: number): Candidate[] {
  const from = s.starts[0];
  const to = s.starts[before];
  return cands.finals().filter((c) => !NOT_CONDITION.test(c.code) && c.spans.some((sp) => sp.start >= from && sp.end <= to));
}

interface DrugEvent {
  column: Column;
  subs: Substance[];
  cue: Span;
  sentence: number;
  /** where the sentence states it */
  at: number;
}

/** What sentence si says happened with the substances it names, if anything. */
function eventIn(cands: Candidates, drugs: TermRows, si: number): DrugEvent | undefined {
  const sentences = cands.ctx.sentences;
  const s = sentences[si];
  const lower = s.lower;
  const under = matches(lower, UNDER);
  const venom = matches(lower, VENOM);
  const here0 = substancesIn(drugs, s, si, venom.length > 0);
  const alcohol = matches(lower, ALCOHOL);
  const isAlcohol = (x: Substance) => drugs.cellOf(x.row, 0).startsWith('T51');
  const poison = matches(lower, POISON).concat(alcohol.length && here0.some((x) => !isAlcohol(x)) ? alcohol : []);
  // A drug not prescribed taken with one prescribed: a poisoning by both (I.C.19.e.5.b).
  if (new Set(here0.map((x) => x.row)).size >= 2) poison.push(...matches(lower, NOT_PRESCRIBED));
  const venomous = here0.some((x) => drugs.cellOf(x.row, 0).startsWith('T63')) ? venom : [];
  const adverse = matches(lower, ADVERSELY);
  // A cause stated right before a drug, after a condition it caused ("constipation from the oxycodone").
  for (const i of matches(lower, CAUSED)) {
    if (i > 0 && NOT_CAUSE_BEFORE.test(lower[i - 1])) continue;
    const end = i + cueLength(lower, i, CAUSED);
    const drug = here0.find((x) => x.start >= end && lower.slice(end, x.start).every((w) => BEFORE_DRUG.test(w)));
    if (!drug) continue;
    if (conditionsBefore(cands, s, i).length) adverse.push(i);
  }
  // A drug's toxicity with the drug taken as prescribed.
  const properly = matches(lower, PROPERLY);
  const toxic = lower.findIndex((w) => TOXICITY.test(w));
  if (properly.length && toxic >= 0) adverse.push(toxic);
  const inducedAt = lower.findIndex(induced);
  // A substance given to harm, or taken to harm oneself, is a poisoning whatever the verb.
  const harm = [...matches(lower, ASSAULTED), ...matches(lower, SELF_HARMED)];
  if (!under.length && !poison.length && !venomous.length && !adverse.length && !harm.length && inducedAt < 0) return undefined;
  const asserted = assertWords(s.words);
  // A poisoning or an adverse effect the note gives as history ("history of overdose") is not one now.
  const now = (i: number) => asserted[i] === 'present';
  const present = (i: number) => now(i) || asserted[i] === 'historical';
  // A caregiver who gives the patient less ("his mother gives him half the dose") speaks of the patient's drug.
  const given = (i: number) => present(i) || (asserted[i] === 'family' && lower.some((w) => GIVING.test(w)));
  let here = here0.filter((x) => present(x.start));
  let column: Column | undefined;
  let cue = -1;
  if (under.some(given)) [column, cue] = ['underdosing', under.find(given)!];
  else if (poison.some(now)) [column, cue] = ['accidental', poison.find(now)!];
  else if (venomous.some(now)) {
    [column, cue] = ['accidental', venomous.find(now)!];
    here = here.filter((x) => drugs.cellOf(x.row, 0).startsWith('T63'));
  } else if (harm.some(now) && here.length) [column, cue] = ['accidental', harm.find(now)!];
  else if (adverse.some(now) || (inducedAt >= 0 && now(inducedAt))) [column, cue] = ['adverse effect', adverse.find(now) ?? inducedAt];
  if (!column) return undefined;
  here = here.filter((x) => Math.abs(x.start - cue) <= NEAR || (column === 'accidental' && alcohol.length));
  // A poisoning's substance may be named in the sentence before or after a short one that says so ("Overdose; intent unknown.").
  let subs = here;
  if (!subs.length && column === 'accidental' && lower.length <= 10)
    for (const sj of [si - 1, si + 1]) {
      if (sj < 0 || sj >= sentences.length) continue;
      const a = assertWords(sentences[sj].words);
      subs = substancesIn(drugs, sentences[sj], sj).filter((x) => a[x.start] === 'present');
      if (subs.length) break;
    }
  if (!subs.length) return undefined;
  if (column === 'accidental') column = intentOf(sentences, si);
  return { column, subs, cue: span(s, cue, cue), sentence: si, at: cue };
}

/**
 * Codes from the Table of Drugs and Chemicals for what the note says of a substance: poisoning by
 * its intent, first, before its manifestations; an adverse effect after the condition it caused,
 * read at the Index's subterm for a drug cause; underdosing after the condition, with the
 * noncompliance (Z91.12-, Z91.13-, Z91.A-) the note states. A less specific poisoning code read
 * from the words alone ("overdose", T50.90-) gives way, and so does alcohol dependence read from
 * the word "alcohol" alone beside a toxic effect of alcohol (I.C.19.e.5.b: abuse or dependence
 * only when stated).
 */
export function applyDrugTable(cands: Candidates): void {
  const { tables, sentences } = cands.ctx;
  if (!tables) return;
  const drugs = tables.drugs;
  const ch = seventh(cands.ctx.defaults);
  const events: DrugEvent[] = [];
  for (let si = 0; si < sentences.length; si++) {
    if (!sentences[si].ids.some(isKey)) continue;
    const e = eventIn(cands, drugs, si);
    if (e) events.push(e);
  }
  if (!events.length) return;
  const poisonings: Candidate[] = [];
  const after: Candidate[] = [];
  for (const e of events) {
    const k = DRUG_COLUMNS.indexOf(e.column);
    const es = sentences[e.sentence];
    const conditions = e.column === 'adverse effect' ? conditionsBefore(cands, es, es.lower.length - 1) : [];
    for (const sub of e.subs) {
      const s = sentences[sub.sentence];
      const row = rowFor(drugs, sub.row, s.lower, e.column);
      if (row === undefined) continue;
      const code = complete(drugs.cellOf(row, k), ch);
      if (!code) continue;
      const title = drugs.pathOf(row);
      const made = cands.assign(
        code,
        `${e.column === 'adverse effect' ? 'adverse effect' : e.column === 'underdosing' ? 'underdosing' : `${POISONING_RULE}${e.column}`} (guideline I.C.19.e; Table of Drugs and Chemicals: ${title}, ${e.column})`,
        [],
        [span(s, sub.start, sub.end), e.cue],
      );
      if (!made) continue;
      (k <= 3 ? poisonings : after).push(made);
      if (e.column === 'adverse effect') applyDrugInduced(cands, conditions, code.startsWith('T45.1'), new Set(es.lower));
      if (e.column === 'underdosing') {
        const z = noncompliance(es, e.at);
        const zc =
          z &&
          cands.assign(z, 'underdosing, the noncompliance the note states (guideline I.C.19.e.5.c; Z91.12-, Z91.13-, Z91.A-)', [], [e.cue]);
        if (zc) after.push(zc);
      }
    }
  }
  if (!poisonings.length && !after.length) return;
  // Codes read from words alone that the table's codes state better: an unspecified drug's
  // poisoning or adverse effect (T50.9-), "suicide attempt" (T14.91) beside a self-harm poisoning,
  // and alcohol dependence from the bare word "alcohol" beside a toxic effect of alcohol.
  const made = new Set([...poisonings, ...after]);
  const alcoholic = poisonings.some((p) => p.code.startsWith('T51'));
  const { text } = cands.ctx;
  for (const c of cands.finals()) {
    if (made.has(c)) continue;
    if (/^T50(9|A|B|Z)/.test(c.code) || (c.code.startsWith('T1491') && poisonings.some((p) => p.code[5] === '2')))
      cands.discard(c, 'Discarded: the Table of Drugs and Chemicals codes the substance the note names (guideline I.C.19.e).');
    else if (alcoholic && c.code.startsWith('F10') && c.spans.every((sp) => BARE_ALCOHOL.test(text.slice(sp.start, sp.end))))
      cands.discard(
        c,
        'Discarded: a toxic effect of alcohol; abuse or dependence is coded only when the note states it (guideline I.C.19.e.5.b).',
      );
  }
}
const BARE_ALCOHOL = /^(alcohol|ethanol)$/i;

const POISONING_RULE = 'poisoning, ';
const AFTER_RULE = /^(adverse effect|underdosing)/;

/**
 * Where the guidelines list a code this table made: poisonings first (I.C.19.e.5.b); adverse
 * effects and underdosing after the conditions they caused (5.a, 5.c), with their noncompliance
 * codes; undefined for any other code.
 */
export function drugTablePlace(c: Candidate): 'first' | 'last' | undefined {
  if (c.rule.startsWith(POISONING_RULE)) return 'first';
  return AFTER_RULE.test(c.rule) ? 'last' : undefined;
}

/** The poisoning's intent as the note states it around sentence si (I.C.19.e.5.b). */
function intentOf(sentences: readonly Sentence[], si: number): Column {
  const near = [si - 1, si, si + 1].filter((k) => k >= 0 && k < sentences.length).map((k) => sentences[k]);
  const said = (re: Cue) =>
    near.some((s) => {
      const a = assertWords(s.words);
      return matches(s.lower, re).some((i) => a[i] !== 'negated') && !s.lower.includes('unintentional');
    });
  if (said(UNDETERMINED_INTENT)) return 'undetermined';
  if (said(ASSAULTED)) return 'assault';
  if (said(SELF_HARMED)) return 'self-harm';
  return 'accidental';
}
