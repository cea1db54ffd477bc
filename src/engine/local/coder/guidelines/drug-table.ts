import { DRUG_COLUMNS, type TermRows } from '../../../../terminology/term-tables.js';
import { wordStems } from '../../../../terminology/text-normalize.js';
import { assertWords } from '../assertions.js';
import type { Candidate, Candidates, Span } from '../candidate.js';
import type { Sentence } from '../sentence-split.js';
import { wordTest } from '../word-tests.js';
import { DRUG_CLASSES } from './drug-classes.js';
import { titleNames } from './drug-names.js';

// Guideline I.C.19.e, by the FY2026 Table of Drugs and Chemicals: what the note says happened with
// a substance picks the table's column, and the substance's row gives the code.
//  - poisoning (I.C.19.e.5.b): an overdose, a wrong substance or dose, a drug taken with alcohol;
//  - adverse effect (I.C.19.e.5.a): a drug correctly prescribed and properly taken;
//  - underdosing (I.C.19.e.5.c): less taken than prescribed, or stopped by the patient.
type Column = (typeof DRUG_COLUMNS)[number];

const POISONING =
  /^(overdose|overdosed|overdoses|overdosing|poisoning|poisoned|intoxication|ingestion|ingested|swallowed)$|^(took|taken|taking|take) too (many|much)$|^wrong (medication|medicine|drug|dose|pills?|tablets?)$|^(double|extra) doses?$|^(by mistake|in error)$/;
// A drug taken with alcohol is a poisoning by both (I.C.19.e.5.b), when the note names a drug beside it.
const WITH_ALCOHOL = /^(together with|with|and|plus|mixed with) (alcohol|ethanol)$/;
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
const ADVERSE =
  /^(adverse (effect|reaction|event)s?|side[- ]effects?|reaction to|allergic reaction to|as prescribed|prescribed dose|therapeutic dose|correct dose|properly taken|properly administered)$/;
const INDUCED = /^(.+)-(induced|related|associated)$/;
const UNDERDOSING =
  /^(underdos\w*|stopped taking|quit taking|ran out of|run out of|running out of|missed doses?|missing doses?|skipped doses?|skipping doses?|skips doses?|forgets? (doses?|to take)|forgot to take|less than prescribed|not taking|noncompliant with|non-compliant with|nonadherent with|non-adherent with)$|^(he|she|patient|pt) (stopped|quit|discontinued)$|^self-discontinued$/;
// Intent, stated (I.C.19.e.5.b): accidental when it is not; undetermined only when the note says the intent cannot be determined.
const SELF_HARM =
  /^(suicide|suicidal|self-harm|self-inflicted|intentional|intentionally|deliberate|deliberately|purposely)$|^self harm$|^on purpose$/;
const ASSAULT = /^(assault|assaulted|homicidal|maliciously)$/;
const UNDETERMINED = /^(undetermined|indeterminate)$|^(not|cannot|can't|could not|couldn't) be determined$|^unable to determine$/;
// Why a patient took less than prescribed (Z91.12-, Z91.13-).
const FINANCIAL = /^(afford|affordable|cost|costs|expensive|financial|financially|insurance|money)$/;
const INTENTIONAL_UNDER = /^(decided|chose|chooses|refused|refuses|refusing|prefers|preferred|afford|cost|expensive|financial)$/;
const UNINTENTIONAL_UNDER = /^(forgot|forgets|forgetting|forgetful|confused|misunderstood|misread|memory)$/;
const AGE_DEBILITY = /^(age-related|elderly|debility|frail|frailty)$/;

/** A cue: its phrases (one to four words) and the words they can start with, so most words are passed by one lookup. */
interface Cue {
  re: RegExp;
  first: ReadonlySet<string>;
}
const cue = (re: RegExp, first: string): Cue => ({ re, first: new Set(first.split(' ')) });

const UNDER = cue(
  UNDERDOSING,
  'stopped quit ran run running missed missing skipped skipping skips forget forgets forgot less not noncompliant non-compliant nonadherent non-adherent he she patient pt self-discontinued',
);
const POISON = cue(
  POISONING,
  'overdose overdosed overdoses overdosing poisoning poisoned intoxication ingestion ingested swallowed took taken taking take wrong double extra by in',
);
const ALCOHOL = cue(WITH_ALCOHOL, 'together with and plus mixed');
const ADVERSELY = cue(ADVERSE, 'adverse side side-effect side-effects reaction allergic as prescribed therapeutic correct properly');
const ASSAULTED = cue(ASSAULT, 'assault assaulted homicidal maliciously');
const SELF_HARMED = cue(
  SELF_HARM,
  'suicide suicidal self-harm self-inflicted intentional intentionally deliberate deliberately purposely self on',
);
const UNDETERMINED_INTENT = cue(UNDETERMINED, "undetermined indeterminate not cannot can't could couldn't unable");
const CANNOT_AFFORD = cue(/^(could not|couldn't|cannot|can't|unable to) afford$/, "could couldn't cannot can't unable");

// Words one of the cues above holds: a sentence without any is not read further (most are not).
const KEYS = new Set(
  'overdose overdosed overdoses overdosing poisoning poisoned intoxication ingestion ingested swallowed too wrong double extra mistake error alcohol ethanol adverse side side-effect side-effects reaction prescribed therapeutic correct properly stopped quit ran run running missed missing skipped skipping skips forget forgets forgot less taking noncompliant non-compliant nonadherent non-adherent discontinued self-discontinued'.split(
    ' ',
  ),
);
const INTENT_WORDS = new Set(
  'assault assaulted homicidal maliciously suicide suicidal self-harm self-inflicted self intentional intentionally deliberate deliberately purposely'.split(
    ' ',
  ),
);
const induced = (w: string) => w.includes('-') && INDUCED.test(w);
const KEYS_AND_INTENT = new Set([...KEYS, ...INTENT_WORDS]);
const isKey = wordTest((w) => KEYS_AND_INTENT.has(w) || w.startsWith('underdos') || induced(w));

/**
 * The substances' names, lower case, each to its first row (the title and its comma parts), built
 * once per thread: one map of strings to numbers, no object per name (the service's RSS).
 */
const namesCache = new WeakMap<TermRows, Map<string, number>>();

function namesOf(drugs: TermRows): Map<string, number> {
  let n = namesCache.get(drugs);
  if (n) return n;
  n = new Map();
  for (let i = 0; i < drugs.size; i = drugs.end[i]) {
    // "Tablets", "Drug NEC": an unspecified drug (T50.90-) names no substance.
    if (drugs.cellOf(i, 0).startsWith('T50.90')) continue;
    const title = drugs
      .titleOf(i)
      .toLowerCase()
      .replace(/\s+nec$/, '');
    for (const name of new Set(titleNames(title))) {
      // A name of one short word ("tea", "gas") or a word of any note ("blood") is too loose to read.
      if ((!name.includes(' ') && name.length < 5) || NOT_SUBSTANCES.has(name) || n.has(name)) continue;
      n.set(name, i);
    }
  }
  // A drug the Table lists only by its class: its class's row.
  for (const c of DRUG_CLASSES) {
    const row = drugs.resolvePath(c.row);
    if (row !== undefined) for (const name of c.drugs) if (!n.has(name)) n.set(name, row);
  }
  namesCache.set(drugs, n);
  return n;
}

/** A substance the note names: its row in the table and the words that name it. */
interface Substance {
  row: number;
  sentence: number;
  start: number;
  end: number;
}

/** The phrase of n words that starts at word i, lower case. */
function phraseAt(lower: readonly string[], i: number, n: number): string {
  return n === 1 ? lower[i] : lower.slice(i, i + n).join(' ');
}

/** Where the sentence states one of the cue's phrases (the first word of each). */
function matches(lower: readonly string[], c: Cue): number[] {
  const out: number[] = [];
  for (let i = 0; i < lower.length; i++) {
    if (!c.first.has(lower[i]) && !(c === UNDER && lower[i].startsWith('underdos'))) continue;
    for (let n = 1; n <= 4 && i + n <= lower.length; n++)
      if (c.re.test(phraseAt(lower, i, n))) {
        out.push(i);
        break;
      }
  }
  return out;
}

/** The substances a sentence names (the longest name at each word, up to four words), with "-induced" words split. */
function substancesIn(drugs: TermRows, s: Sentence, si: number): Substance[] {
  const names = namesOf(drugs);
  const out: Substance[] = [];
  const lower = s.lower;
  for (let i = 0; i < lower.length; i++) {
    for (let n = Math.min(4, lower.length - i); n >= 1; n--) {
      const phrase = n === 1 ? (INDUCED.exec(lower[i])?.[1] ?? lower[i]) : phraseAt(lower, i, n);
      const row = names.get(phrase);
      if (row === undefined) continue;
      out.push({ row, sentence: si, start: i, end: i + n - 1 });
      i += n - 1;
      break;
    }
  }
  return out;
}

/** The row a substance's words reach: a subterm the sentence also states ("Alcohol, beverage"), following `see` to a row with codes. */
function rowFor(drugs: TermRows, row: number, lower: readonly string[]): number | undefined {
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
    if (DRUG_COLUMNS.some((_, k) => drugs.cellOf(at, k))) return at;
    const see = drugs.seeOf(at);
    const next = see ? drugs.resolvePath(see) : undefined;
    if (next === undefined) return undefined;
    at = next;
  }
  return undefined;
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

/**
 * Codes from the Table of Drugs and Chemicals for what the note says of a substance: poisoning by
 * its intent, first, before its manifestations; an adverse effect after the condition it caused;
 * underdosing after the condition, with the noncompliance (Z91.12-, Z91.13-) the note states. A
 * less specific poisoning code read from the words alone ("overdose", T50.90-) gives way.
 */
export function applyDrugTable(cands: Candidates): void {
  const { tables, sentences } = cands.ctx;
  if (!tables) return;
  const drugs = tables.drugs;
  const ch = seventh(cands.ctx.defaults);
  const events: Array<{ column: Column; subs: Substance[]; cue: Span; sentence: number }> = [];
  for (let si = 0; si < sentences.length; si++) {
    const s = sentences[si];
    const lower = s.lower;
    if (!s.ids.some(isKey)) continue;
    const under = matches(lower, UNDER);
    const here0 = substancesIn(drugs, s, si);
    const alcohol = matches(lower, ALCOHOL);
    const poison = matches(lower, POISON).concat(
      alcohol.length && here0.some((x) => !/^(alcohol|ethanol)$/.test(lower[x.start])) ? alcohol : [],
    );
    const adverse = matches(lower, ADVERSELY);
    const inducedAt = lower.findIndex(induced);
    // A substance given to harm, or taken to harm oneself, is a poisoning whatever the verb.
    const harm = [...matches(lower, ASSAULTED), ...matches(lower, SELF_HARMED)];
    if (!under.length && !poison.length && !adverse.length && !harm.length && inducedAt < 0) continue;
    const asserted = assertWords(s.words);
    const present = (i: number) => asserted[i] === 'present' || asserted[i] === 'historical';
    let here = here0.filter((x) => present(x.start));
    let column: Column | undefined;
    let cue = -1;
    if (under.some(present)) [column, cue] = ['underdosing', under.find(present)!];
    else if (poison.some(present)) [column, cue] = ['accidental', poison.find(present)!];
    else if (harm.some((i) => asserted[i] === 'present') && here.length)
      [column, cue] = ['accidental', harm.find((i) => asserted[i] === 'present')!];
    else if (adverse.some(present) || (inducedAt >= 0 && present(inducedAt)))
      [column, cue] = ['adverse effect', adverse.find(present) ?? inducedAt];
    if (!column) continue;
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
    if (!subs.length) continue;
    if (column === 'accidental') column = intentOf(sentences, si);
    events.push({ column, subs, cue: span(s, cue, cue), sentence: si });
  }
  if (!events.length) return;
  const poisonings: Candidate[] = [];
  const after: Candidate[] = [];
  for (const e of events) {
    const k = DRUG_COLUMNS.indexOf(e.column);
    for (const sub of e.subs) {
      const s = sentences[sub.sentence];
      const row = rowFor(drugs, sub.row, s.lower);
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
      if (e.column === 'underdosing') {
        const z = noncompliance(sentences[e.sentence]);
        const zc =
          z && cands.assign(z, 'underdosing, the noncompliance the note states (guideline I.C.19.e.5.c; Z91.12-, Z91.13-)', [], [e.cue]);
        if (zc) after.push(zc);
      }
    }
  }
  if (!poisonings.length && !after.length) return;
  // Codes read from words alone that the table's codes state better: an unspecified drug's
  // poisoning or adverse effect (T50.9-), and "suicide attempt" (T14.91) beside a self-harm poisoning.
  const made = new Set([...poisonings, ...after]);
  for (const c of cands.finals()) {
    if (made.has(c)) continue;
    if (/^T50(9|A|B|Z)/.test(c.code) || (c.code.startsWith('T1491') && poisonings.some((p) => p.code[5] === '2')))
      cands.discard(c, 'Discarded: the Table of Drugs and Chemicals codes the substance the note names (guideline I.C.19.e).');
  }
}

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

/** Z91.12- or Z91.13- for the reason a patient took less than prescribed, when the note gives one. */
function noncompliance(s: Sentence): string | undefined {
  const lower = s.lower;
  if (matches(lower, CANNOT_AFFORD).length || lower.some((w) => FINANCIAL.test(w))) return 'Z91.120';
  if (lower.some((w) => INTENTIONAL_UNDER.test(w))) return 'Z91.128';
  if (lower.some((w) => UNINTENTIONAL_UNDER.test(w))) return lower.some((w) => AGE_DEBILITY.test(w)) ? 'Z91.130' : 'Z91.138';
  return undefined;
}
