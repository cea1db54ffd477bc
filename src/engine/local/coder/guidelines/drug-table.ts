import { DRUG_COLUMNS, type TermRows } from '../../../../terminology/term-tables.js';
import { wordStems } from '../../../../terminology/text-normalize.js';
import { assertWords } from '../assertions.js';
import type { Candidate, Candidates, Span } from '../candidate.js';
import type { Sentence } from '../sentence-split.js';
import {
  ADVERSELY,
  ALCOHOL,
  ASSAULTED,
  CAUSED,
  CAUSING,
  DRINKS,
  type Cue,
  NOT_CAUSE_BEFORE,
  NOT_PRESCRIBED,
  GIVEN_IN_ERROR,
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
} from './drug-cues.js';
import { applyDrugInduced } from './drug-induced.js';
import { BEVERAGE_ROW, type Substance, substancesIn } from './drug-names.js';

// Guideline I.C.19.e, by the FY2026 Table of Drugs and Chemicals: what the note says happened with
// a substance picks the table's column, and the substance's row gives the code.
//  - poisoning (I.C.19.e.5.b): an overdose, a wrong substance or dose, a drug taken with alcohol;
//  - adverse effect (I.C.19.e.5.a): a drug correctly prescribed and properly taken;
//  - underdosing (I.C.19.e.5.c): less taken than prescribed, or stopped by the patient.
type Column = (typeof DRUG_COLUMNS)[number];

// How far (in words) a substance may be from the words that say what happened with it.
const NEAR = 8;
// Words of a drug taken as a medicine: a substance the Table lists as a chemical ("Lithium" T56.89-)
// is then its medicinal form ("Lithium, salts" T43.59-).
const MEDICINE = /^(tablets?|pills?|capsules?|mg|dose|doses|prescribed|prescription|medication|medications|level|levels)$/;
const ALCOHOL_ROW = /^T51\.9/;
// Words that may stand between a cause and the drug it names ("due to her cisplatin", "from the oxycodone").
const BEFORE_DRUG =
  /^(the|a|an|his|her|their|my|this|new|newly|recent|recently|prescribed|started|iv|oral|intravenous|home|daily|weekly|first|dose|of|both)$/;
// Words beside a substance given as a treatment ("given naloxone", "Narcan x2", "NAC started").
const TREATMENT_BEFORE = /^(given|gave|administered|received|receiving|start|started|starting|treated|treat|reversed|plus|iv)$/;
const TREATMENT_AFTER = /^(given|administered|started|x1|x2|x3|drip|infusion|protocol|administration)$/;
function isTreatment(lower: readonly string[], x: { start: number; end: number }): boolean {
  return (
    lower.slice(Math.max(0, x.start - 2), x.start).some((w) => TREATMENT_BEFORE.test(w)) ||
    lower.slice(x.end + 1, x.end + 3).some((w) => TREATMENT_AFTER.test(w))
  );
}
const GIVING = /^(giving|gives|gave|given|administering|administers)$/;

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

/** Final conditions stated in sentence s after word `after`. */
function conditionsAfter(cands: Candidates, s: Sentence, after: number): Candidate[] {
  const from = s.ends[after];
  const to = s.ends[s.ends.length - 1];
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
  const alcohol = lower.some((w) => DRINKS.test(w)) ? matches(lower, ALCOHOL) : [];
  const poison = matches(lower, POISON);
  const adverse = matches(lower, ADVERSELY);
  const caused = matches(lower, CAUSED);
  const causing = lower.some((w) => CAUSING.test(w));
  const properly = matches(lower, PROPERLY);
  const toxic = lower.findIndex((w) => TOXICITY.test(w));
  const inducedAt = lower.findIndex(induced);
  // A substance given to harm, or taken to harm oneself, is a poisoning whatever the verb.
  const harm = [...matches(lower, ASSAULTED), ...matches(lower, SELF_HARMED)];
  // (Most sentences with a key word say none of these: the substances are looked up only then.)
  const said = under.length || venom.length || alcohol.length || poison.length || adverse.length || caused.length || causing;
  if (!said && !(properly.length && toxic >= 0) && !harm.length && inducedAt < 0) return undefined;
  const here0 = substancesIn(drugs, s, si, venom.length > 0);
  // (A poisoning's substance may stand in the sentence beside: read below.)
  if (!here0.length && !poison.length) return undefined;
  const isAlcohol = (x: Substance) => drugs.cellOf(x.row, 0).startsWith('T51');
  if (alcohol.length && here0.some((x) => !isAlcohol(x))) poison.push(...alcohol);
  // A drug not prescribed taken with one prescribed: a poisoning by both (I.C.19.e.5.b).
  if (new Set(here0.map((x) => x.row)).size >= 2) poison.push(...matches(lower, NOT_PRESCRIBED));
  const venomous = here0.some((x) => drugs.cellOf(x.row, 0).startsWith('T63')) ? venom : [];
  // A cause stated right before a drug, after a condition it caused ("constipation from the oxycodone").
  for (const i of caused) {
    if (i > 0 && NOT_CAUSE_BEFORE.test(lower[i - 1])) continue;
    const end = i + cueLength(lower, i, CAUSED);
    const drug = here0.find((x) => x.start >= end && lower.slice(end, x.start).every((w) => BEFORE_DRUG.test(w)));
    if (!drug) continue;
    if (conditionsBefore(cands, s, i).length) adverse.push(i);
  }
  // A drug right before a cause, a condition after it ("the amiodarone caused hypothyroidism").
  if (causing)
    for (const x of here0) {
      const i = x.end + 1 + (lower[x.end + 1] === 'has' || lower[x.end + 1] === 'is' ? 1 : 0);
      if (i < lower.length && CAUSING.test(lower[i]) && conditionsAfter(cands, s, i).length) adverse.push(i);
    }
  // A drug's toxicity with the drug taken as prescribed.
  if (properly.length && toxic >= 0) adverse.push(toxic);
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
  if (column === 'accidental') {
    // The treatment of a poisoning ("naloxone given", "started on N-acetylcysteine") is no substance
    // taken, unless the note says a drug was given in error.
    if (!matches(lower, GIVEN_IN_ERROR).length) here = here.filter((x) => !isTreatment(lower, x));
    // "Alcohol intoxication" is the use of alcohol (I.C.5, Index: Intoxication, alcoholic F10.-), not a toxic effect.
    if (lower[cue] === 'intoxication' || lower[cue] === 'intoxicated') here = here.filter((x) => !isAlcohol(x));
  }
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
