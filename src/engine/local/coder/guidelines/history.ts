import type { IndexTabular } from '../../../../terminology/index-tabular.js';
import { stemWords } from '../../../../terminology/text-normalize.js';
import { assertWords, PAST_YEAR, triggersOf } from '../assertions.js';
import { type Candidate, type Candidates, dotted, type NoteContext, SEQUELA_TITLE } from '../candidate.js';
import type { Sentence } from '../sentence-split.js';

// The Tabular's chapter and block titles a history subterm may name instead of the condition
// ("History, personal (of), disease or disorder (of), digestive system Z87.19"; "History, family
// (of), malignant neoplasm, digestive organ Z80.0"); an injury of chapter 19 is traumatic.
const CHAPTERS: Array<[RegExp, string]> = [
  [/^[AB]/, 'infectious parasitic infection'],
  [/^C(0|1[0-4])/, 'malignant neoplasm oral cavity pharynx'],
  [/^C(1[5-9]|2[0-6])/, 'malignant neoplasm digestive organ gastrointestinal tract'],
  [/^C(3[0-9])/, 'malignant neoplasm respiratory intrathoracic organ'],
  [/^C4[01]/, 'malignant neoplasm bone'],
  [/^C4[34]/, 'malignant neoplasm skin'],
  [/^C4[5-9]/, 'malignant neoplasm soft tissue'],
  [/^C5[1-8]/, 'malignant neoplasm genital organ'],
  [/^C6[0-3]/, 'malignant neoplasm genital organ'],
  [/^C6[4-8]/, 'malignant neoplasm urinary organ tract'],
  [/^C(69|7[0-2])/, 'malignant neoplasm nervous system'],
  [/^C7[3-5]/, 'malignant neoplasm endocrine gland'],
  [/^C(8[1-9]|9)/, 'malignant neoplasm hematopoietic lymphatic'],
  [/^C/, 'malignant neoplasm'],
  [/^D0/, 'in situ neoplasm'],
  [/^D[1-3]/, 'benign neoplasm'],
  [/^D4/, 'neoplasm uncertain behavior'],
  [/^D[5-8]/, 'blood blood-forming organs immune mechanism hematological'],
  [/^E/, 'endocrine nutritional metabolic'],
  [/^F/, 'mental behavioral psychiatric'],
  [/^G/, 'nervous system neurological'],
  [/^H[0-5]/, 'eye'],
  [/^H[6-9]/, 'ear'],
  [/^I/, 'circulatory system cardiovascular'],
  [/^J/, 'respiratory system'],
  [/^K/, 'digestive system'],
  [/^L/, 'skin subcutaneous tissue'],
  [/^M/, 'musculoskeletal connective tissue'],
  [/^N/, 'genitourinary urinary system'],
  [/^O/, 'obstetric pregnancy childbirth puerperium'],
  [/^P/, 'perinatal'],
  [/^Q/, 'congenital malformation'],
  [/^[ST]/, 'injury traumatic'],
];
const NEUTRAL = new Set([
  'nec',
  'nos',
  'no',
  'specifi',
  'unspecifi',
  'other',
  'of',
  'and',
  'or',
  'the',
  'to',
  'by',
  'site',
  'type',
  'condit',
]);
const STATED = 2;
const CLASS = 1;

const stems = (text: string) =>
  stemWords(
    text
      .toLowerCase()
      .replace(/\([^)]*\)/g, ' ')
      .split(/[\s,]+/)
      .filter(Boolean),
  ).stems.filter((s) => !NEUTRAL.has(s));

/** A history subterm's words the condition must state: its title before "with"/"without"/"due to". */
const cores = new WeakMap<IndexTabular, Map<number, string[]>>();
function coreOf(it: IndexTabular, i: number): string[] {
  let cache = cores.get(it);
  if (!cache) cores.set(it, (cache = new Map()));
  let out = cache.get(i);
  if (!out) cache.set(i, (out = stems(it.titleOf(i).split(/\s+(?:with|without|due to)\b/i)[0])));
  return out;
}

/** "History" > "personal (of)" or "family (of)" in the Index. */
function historyRoot(it: IndexTabular, family: boolean): number | undefined {
  for (const main of it.mainTerms('history')) {
    const sub = it.children(main).find((c) => it.titleOf(c).toLowerCase() === (family ? 'family' : 'personal'));
    if (sub !== undefined) return sub;
  }
  return undefined;
}

/**
 * The code the Index gives for the history of a condition: the subterm path under "History,
 * personal (of)" or "History, family (of)" whose words the condition states best (its words in the
 * note, its code's title, or the Tabular chapter it is classified in), following `see`.
 */
function historyCode(cands: Candidates, c: Candidate, family: boolean): string | undefined {
  const { it, table, text } = cands.ctx;
  if (!it) return undefined;
  const root = historyRoot(it, family);
  if (root === undefined) return undefined;
  const weight = new Map<string, number>();
  const add = (list: string[], w: number) => list.forEach((s) => weight.set(s, Math.max(weight.get(s) ?? 0, w)));
  add(stems(CHAPTERS.find(([re]) => re.test(c.code))?.[1] ?? ''), CLASS);
  add(stems('disease disorder condition'), CLASS);
  add(stems(table.descriptionAt(c.index)), STATED);
  for (const sp of c.spans) add(stems(text.slice(sp.start, sp.end)), STATED);
  const allowed = family ? /^Z8[0-4]/ : /^(Z8[5-7]|I25\.2)/;
  // Every subterm path whose titles the condition states (its own words, or words of its class);
  // the best states most of the condition's own words; of two such, one that refines the other
  // by its class ("malignant neoplasm" > "digestive organ") wins, else the one with fewer words of
  // the class alone ("thyroid" before "endocrine gland").
  interface Found {
    terms: number[];
    stated: number;
    cls: number;
    code: string;
  }
  const found: Found[] = [];
  const walk = (term: number, at: Found, depth: number) => {
    for (const child of it.children(term)) {
      const core = coreOf(it, child);
      if (core.length === 0 || !core.every((w) => weight.has(w))) continue;
      const own = core.filter((w) => weight.get(w) === STATED).length;
      const code = it.codeOf(child) && allowed.test(it.codeOf(child)) ? it.codeOf(child) : at.code;
      const here: Found = { terms: [...at.terms, child], stated: at.stated + own, cls: at.cls + core.length - own, code };
      if (code) found.push(here);
      if (depth >= 5) continue;
      walk(child, here, depth + 1);
      if (!it.codeOf(child) && it.seeOf(child)) {
        const target = it.resolvePath(
          it
            .seeOf(child)
            .replace(/\s*\([^)]*\)/g, '')
            .replace(/\s+by site.*$/i, ''),
        );
        if (target !== undefined && target !== child && !at.terms.includes(target))
          walk(target, { ...here, terms: [...here.terms, target] }, depth + 2);
      }
    }
  };
  walk(root, { terms: [], stated: 0, cls: 0, code: '' }, 0);
  const top = Math.max(0, ...found.map((f) => f.stated));
  // The condition's class alone ("disease or disorder", "digestive system") is a guess for the
  // patient's own history; for a relative's it is how the Index classifies most of them
  // ("History, family, disease or disorder, cardiovascular NEC Z82.49" for a father's heart attack).
  if (top === 0 && !family) return undefined;
  const tied = found.filter((f) => f.stated === top);
  const refined = tied.filter(
    (f) => !tied.some((g) => g !== f && g.terms.length > f.terms.length && f.terms.every((t, k) => g.terms[k] === t)),
  );
  refined.sort((a, b) => a.cls - b.cls);
  return refined[0]?.code;
}

const HISTORY_WORD = /^(personal history|history|hx|h\/o)/i;
/** A word (lower case) a HISTORY_WORD trigger can start with: tested without a pattern, on every word of the note. */
const historyWord = (w: string) => w.startsWith('h') && (w.startsWith('history') || w.startsWith('hx') || w.startsWith('h/o'));

// Words that keep a condition current whatever "history of" says (I.C.21.c.4: a history code is
// for a condition that no longer exists and is not treated).
const CURRENT = new Set([
  'current',
  'currently',
  'active',
  'ongoing',
  'recurrent',
  'recurrence',
  'recurred',
  'now',
  'still',
  'persistent',
  'flare',
  'exacerbation',
  'today',
  'chronic',
  'treated',
  'on',
]);

/** Whether a sentence says something is current: a CURRENT word it does not deny ("no longer on anticoagulation" is past). */
function saysCurrent(s: Sentence): boolean {
  if (!s.lower.some((w) => CURRENT.has(w))) return false;
  const asserted = assertWords(s.words, s.lower);
  return s.lower.some((w, k) => CURRENT.has(w) && asserted[k] !== 'negated');
}

/**
 * Progressive conditions that never resolve: dementia (F01-F03), Alzheimer's and other degenerative
 * diseases of the nervous system (G30, G31), Huntington's (G10), Parkinson's (G20), multiple
 * sclerosis (G35). History codes are for conditions that no longer exist (I.C.21.c.4): "history of
 * dementia" in a past medical history is the dementia.
 */
const LIFELONG = /^(F0[123]|G30|G31|G10|G20|G35)/;

/**
 * "History of X", or X dated in a past year (I.C.21.c.4), states a past condition when the
 * Alphabetic Index classifies its history ("History, personal (of), calculi, renal Z87.442"), and nothing in its sentence says it
 * is current or treated; a condition whose history the Index does not classify ("history of
 * hypertension") is a chronic one the note lists, and stays current.
 */
function applyHistoryOf(cands: Candidates): void {
  const { sentences } = cands.ctx;
  for (const c of cands.finals()) {
    const m = c.found?.mention;
    if (!m || c.origin === 'learned' || c.assertion !== 'present' || /^[ZVWXY]/.test(c.code)) continue;
    // A sequela is current, however long ago its cause (I.B.10): "dysarthria following a cerebral infarction in 2020".
    if (SEQUELA_TITLE.test(cands.ctx.table.descriptionAt(c.index))) continue;
    // A condition that does not resolve ("history of Alzheimer dementia") still exists: its history is it.
    if (LIFELONG.test(c.code)) continue;
    const sentence = sentences[m.sentence];
    if (!sentence || saysCurrent(sentence)) continue;
    const words = sentence.words;
    // The condition the phrase names first ("history of kidney stones"), not an item further down
    // a list of past medical history ("a history of brucellosis, hypercholesterolemia, hyperuricemia").
    // Or the condition dated in a past year ("kidney stones in 2019").
    const said = triggersOf(words, sentence.lower).some(
      (t) =>
        t.assertion === 'historical' &&
        ((HISTORY_WORD.test(words[t.start]) &&
          t.from <= m.start &&
          m.start <= t.from + 2 &&
          !words.slice(t.from, m.start).some((w) => /^[,;]$/.test(w))) ||
          (t.end === t.start + 1 &&
            words[t.start].toLowerCase() === 'in' &&
            /^\d{4}$/.test(words[t.end]) &&
            t.from <= m.start &&
            t.to >= m.end &&
            !yearDatesAnother(words, m.end, t.start))),
    );
    // Or a past-dated mention ("thyroidectomy in 2018 for papillary thyroid cancer") that another
    // sentence calls history ("History of papillary thyroid cancer, no evidence of disease").
    if (!said && !(pastDated(sentence.lower) && historyElsewhere(cands, c, m.sentence))) continue;
    if (!historyCode(cands, c, false)) continue;
    c.assertion = 'historical';
    cands.discard(c, 'Discarded: historical, not a current condition ("history of" or a past year, and the Index classifies its history).');
  }
}

/**
 * A year after the condition dates what a later clause names, not the condition: "Coronary artery
 * disease, status post CABG in 2021" dates the bypass (a status, I.C.21.c.3); the disease is current.
 */
function yearDatesAnother(words: readonly string[], conditionEnd: number, yearAt: number): boolean {
  for (let i = conditionEnd + 1; i < yearAt; i++) if (words[i] === ',' || words[i] === ';') return true;
  return false;
}

/** A sentence that dates what it says in the past: "in 2018", "years ago". */
function pastDated(lower: readonly string[]): boolean {
  return lower.some((w, i) => (w === 'ago' && i > 0) || ((lower[i - 1] === 'in' || lower[i - 1] === 'since') && PAST_YEAR.test(w)));
}

/**
 * Another sentence that says "history of" the words the condition was read from, with nothing
 * current in it: the provider's statement that it is past.
 */
function historyElsewhere(cands: Candidates, c: Candidate, except: number): boolean {
  const { text } = cands.ctx;
  const said = c.spans.flatMap((sp) => stems(text.slice(sp.start, sp.end)));
  if (said.length === 0) return false;
  return historyReachesOf(cands.ctx).some((reaches, si) => si !== except && reaches.some((reach) => said.every((w) => reach.has(w))));
}

const historyReaches = new WeakMap<NoteContext, ReadonlyArray<ReadonlyArray<Set<string>>>>();

/**
 * Each sentence's "history of" reaches, read once per note: the stems of the first six words each
 * such trigger reaches; none in a sentence with anything current in it.
 */
function historyReachesOf(ctx: NoteContext): ReadonlyArray<ReadonlyArray<Set<string>>> {
  let out = historyReaches.get(ctx);
  if (!out) {
    // Only a sentence with a "history" word holds such a trigger: the others' triggers are not read.
    out = ctx.sentences.map((s) =>
      !s.lower.some(historyWord) || saysCurrent(s)
        ? []
        : triggersOf(s.words, s.lower)
            .filter((t) => t.assertion === 'historical' && HISTORY_WORD.test(s.words[t.start]))
            .map((t) => new Set(stems(s.words.slice(t.from, Math.min(t.to, t.from + 5) + 1).join(' ')))),
    );
    historyReaches.set(ctx, out);
  }
  return out;
}

/**
 * A condition in a relative is coded as family history; one the note says is past (resolved,
 * treated, "history of" with nothing current) as personal history, never as a current condition
 * (I.C.21.c.4). The history code is the Alphabetic Index's: "History, personal (of)" or "History,
 * family (of)" and the subterm the condition states.
 */
export function applyHistory(cands: Candidates): void {
  applyHistoryOf(cands);
  for (const c of [...cands.list]) {
    if (c.final || (c.assertion !== 'family' && c.assertion !== 'historical') || c.origin === 'learned' || c.code.startsWith('Z')) continue;
    // A word read in another sense ("a well-healed scar", "ST depression") names no condition to have a history of.
    if (c.why?.startsWith('Discarded: word sense')) continue;
    const family = c.assertion === 'family';
    // A current condition of the same category outranks its own history.
    if (!family && cands.finalsIn(c.code.slice(0, 3)).length) continue;
    const code = historyCode(cands, c, family);
    if (!code) continue;
    const made = cands.assign(
      code,
      family
        ? `family history (Z80-Z84; Index: History, family): ${dotted(c.code)} is stated of a relative`
        : `personal history (Z85-Z87; Index: History, personal): ${dotted(c.code)} is stated as past`,
      [c],
    );
    if (made) c.why = `${c.why ?? ''} Coded as ${code} (${family ? 'family' : 'personal'} history) instead.`.trim();
  }
  // History of a condition that is current is not coded: the current code says it.
  for (const h of cands.finalsIn('Z85', 'Z86', 'Z87')) {
    const of = (h.from ?? []).map((f) => f.code.slice(0, 3));
    const current = cands.finals().some((f) => f !== h && !f.code.startsWith('Z') && of.includes(f.code.slice(0, 3)));
    if (current) cands.discard(h, `Discarded: personal history code, but the condition is coded as current in the same note.`);
  }
}
