import type { IndexTabular } from '../../../../terminology/index-tabular.js';
import { stemWords } from '../../../../terminology/text-normalize.js';
import type { Candidates, Span } from '../candidate.js';
import type { Sentence } from '../sentence-split.js';

const EXAM =
  /\b(annual (physical|exam|examination|check-?up|wellness)|routine (adult )?(health|physical|medical|general) (check|check-?up|exam|examination)|general (medical )?(examination|check-?up)|well[- ](child|baby|woman|adult)( visit| check| exam)?|(adult |child )?wellness (visit|exam|examination|check)|preventive (visit|exam|examination)|health maintenance (visit|exam)|newborn (check|exam|examination|visit))\b/i;
const NEWBORN = /\bnewborn\b|\b\d+[- ]days?[- ]old\b/i;
const DAYS_OLD = /\b(\d+)[- ]days?[- ]old\b/i;
const CHILD = /\bwell[- ](child|baby)\b|\b(\d+)[- ](year|month)s?[- ]old\b/i;

// The words a note names its visit's examination by, and what may follow them in the sentence
// that states the reason for the visit ("Sports physical for school soccer", "gynecologic exam with
// Pap smear", "dental exam and cleaning"; not "Physical examination revealed ...", a finding).
const HEAD = new Set(['exam', 'examination', 'physical', 'check', 'checkup', 'check-up']);
const AFTER_HEAD = new Set([',', ';', '.', ':', 'for', 'visit', 'today', 'with', 'and']);
/** The reason for the visit is stated first: its first sentences, within their first words. */
const REASON_SENTENCES = 2;
const REASON_WORDS = 6;

const stems = (text: string) =>
  stemWords(
    text
      .replace(/\([^)]*\)/g, ' ')
      .split(/[\s,]+/)
      .filter(Boolean),
  ).stems;

// Subterms that only group the kinds of examination ("medical (adult) > pre-employment").
const GROUPING = new Set(['medical', 'physical', 'general']);

/** Whether each subterm between the main term and t is stated, or only groups its subterms. */
function pathSaid(it: IndexTabular, main: number, t: number, said: ReadonlySet<string>): boolean {
  for (let j = t - 1, lv = it.level[t]; j > main && lv > it.level[main] + 1; j--) {
    if (it.level[j] >= lv) continue;
    lv = it.level[j];
    const title = it
      .titleOf(j)
      .replace(/\s*\([^)]*\)/g, '')
      .toLowerCase();
    if (!GROUPING.has(title) && !stems(title).every((w) => said.has(w))) return false;
  }
  return true;
}

/**
 * The examination the visit is for, read in the Alphabetic Index ("Examination (for) (routine)"
 * and its subterms: eye Z01.00, gynecological Z01.419, medical > pre-employment Z02.1, physical >
 * sports Z02.5): the subterm whose words the reason's sentence states, the most of them; its
 * "with abnormal findings" subterm when the note codes a finding. Undefined when the note states
 * no examination as its reason, or none the Index names more than in general.
 */
function indexExam(it: IndexTabular, sentences: readonly Sentence[]): { term: number; span: Span } | undefined {
  for (const s of sentences.slice(0, REASON_SENTENCES)) {
    const h = s.lower.findIndex((w, i) => i < REASON_WORDS && HEAD.has(w));
    if (h < 0 || (h + 1 < s.lower.length && !AFTER_HEAD.has(s.lower[h + 1]))) continue;
    let end = h + 1;
    if (s.lower[end] === 'for') while (end < s.lower.length && !/^[;:.]$/.test(s.lower[end])) end++;
    const said = new Set(stemWords(s.words.slice(0, end)).stems);
    let best: { term: number; own: number } | undefined;
    for (const main of it.mainTerms('examination')) {
      for (let t = main + 1; t < it.end[main]; t++) {
        if (it.level[t] - it.level[main] > 3 || !it.codeOf(t)) continue;
        const title = it.titleOf(t);
        if (/^(with|without)\b/i.test(title)) continue;
        const own = stems(title);
        if (own.length === 0 || !own.every((w) => said.has(w)) || !pathSaid(it, main, t, said)) continue;
        // On a tie the deeper subterm says more ("annual > gynecological" over "annual").
        if (!best || own.length > best.own || (own.length === best.own && it.level[t] > it.level[best.term]))
          best = { term: t, own: own.length };
      }
    }
    if (best) return { term: best.term, span: { start: s.starts[0], end: s.ends[end - 1] } };
  }
  return undefined;
}

/**
 * Encounters for an examination (I.C.21.c.13): the Index's code for the examination the visit is
 * for (eye, gynecological, administrative: pre-employment, sports), with its "with abnormal
 * findings" subterm when the note codes a current condition or finding; for a general
 * examination, Z00.0- for an adult, Z00.12- for a child, Z00.11- for a newborn.
 */
export function applyExamEncounter(cands: Candidates): void {
  const { text, it, sentences } = cands.ctx;
  const abnormal = cands.finals().some((c) => !c.code.startsWith('Z'));
  const found = it && indexExam(it, sentences);
  // The general examination (Z00.0-, Z00.1-) depends on age, read below.
  if (it && found && !/^Z00\.[01]/.test(it.codeOf(found.term))) {
    const withFindings = abnormal ? it.children(found.term).find((c) => /^with abnormal findings( NEC)?$/i.test(it.titleOf(c))) : undefined;
    const code = it.codeOf(withFindings ?? found.term);
    const kind = it.titleOf(found.term).replace(/\s*\([^)]*\)/g, '');
    if (cands.assign(code, `encounter for an examination (I.C.21.c.13; Index: Examination, ${kind})`, [], [found.span])) return;
  }
  const m = EXAM.exec(text);
  if (!m) return;
  const spans: Span[] = [{ start: m.index, end: m.index + m[0].length }];
  const newborn = NEWBORN.exec(text);
  const child = CHILD.exec(text);
  let code: string;
  if (newborn) {
    const days = Number(DAYS_OLD.exec(text)?.[1] ?? 0);
    code = days >= 8 && days <= 28 ? 'Z00.111' : 'Z00.110';
  } else if (child && (child[1] || (child[3] === 'year' ? Number(child[2]) < 18 : true))) code = abnormal ? 'Z00.121' : 'Z00.129';
  else code = abnormal ? 'Z00.01' : 'Z00.00';
  cands.assign(code, `encounter for a general examination ${abnormal ? 'with' : 'without'} abnormal findings (I.C.21.c.13)`, [], spans);
}
