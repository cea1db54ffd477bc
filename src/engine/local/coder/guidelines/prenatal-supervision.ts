import type { IndexTabular } from '../../../../terminology/index-tabular.js';
import { stemWords } from '../../../../terminology/text-normalize.js';
import { assertWords } from '../assertions.js';
import type { Candidates } from '../candidate.js';
import type { Sentence } from '../sentence-split.js';
import { bestSubterms, subtermsOf } from './index-subterms.js';
import { weeksOfGestation } from './pregnancy.js';
import { statedTrimester, withTrimester } from './trimester.js';

const REASON_SENTENCES = 2;
// "supervision", or a prenatal visit ("Routine prenatal visit", "antenatal check"), not "prenatal vitamins".
const SUPERVISION = /^(prenatal|antenatal|supervision)$/;
const VISIT = /^(visit|care|check|checkup|check-up|exam|examination|appointment|follow-up)$/;
const PREGNANT = /^(pregnant|pregnancy|gestation|gravida|primigravida|multigravida|primigravid|multigravid|weeks?|g\d+p?\d*)$/;
const FIRST = /^(primigravida|primigravid|g1|g1p0)$/;
const LATER = /^(multigravida|multigravid|g[2-9]\d*(p\d+)?)$/;

/**
 * Routine prenatal visits (I.C.15.b.1, b.2): the supervision of a pregnancy is read in the Index
 * under "Pregnancy, supervision (of)": a high-risk subterm the reason states ("elderly mother,
 * primigravida" O09.51-; "high-risk, due to infertility" O09.0-) is coded O09; with no complication
 * coded (Z34 Excludes1 any complication of pregnancy), "normal": a first pregnancy Z34.0-, another
 * Z34.8-, Z34.9- when the note does not say. The trimester from the weeks stated, listed first.
 */
export function applyPrenatalSupervision(cands: Candidates): void {
  const { it, sentences } = cands.ctx;
  if (!it || cands.finalsIn('Z34', 'O09', 'Z38').length) return;
  const reason = sentences.slice(0, REASON_SENTENCES).find((s) => supervisionAt(s) >= 0 && pregnant(s));
  if (!reason) return;
  const trimester = statedTrimester(cands);
  const highRisk = indexHighRisk(it, reason);
  let code: string | undefined;
  if (highRisk) code = withTrimester(cands, highRisk, trimester);
  else if (cands.finalsIn('O').length === 0) code = withTrimester(cands, normalOf(cands), trimester);
  if (!code) return;
  const at = supervisionAt(reason);
  const made = cands.assign(
    code,
    highRisk
      ? 'supervision of a high-risk pregnancy (I.C.15.b.2; Index: Pregnancy, supervision of)'
      : 'routine supervision of a normal pregnancy (I.C.15.b.1; Index: Pregnancy, supervision of, normal)',
    [],
    [{ start: reason.starts[at], end: reason.ends[at] }],
  );
  if (!made) return;
  cands.list.splice(cands.list.indexOf(made), 1);
  cands.list.unshift(made);
  weeksOfGestation(cands);
}

/** Where the sentence states the supervision of a pregnancy, or -1. */
function supervisionAt(s: Sentence): number {
  return s.lower.findIndex(
    (w, i) => SUPERVISION.test(w) && (w === 'supervision' || VISIT.test(s.lower[i + 1] ?? '') || VISIT.test(s.lower[i + 2] ?? '')),
  );
}

function pregnant(s: Sentence): boolean {
  const assertions = assertWords(s.words);
  return s.lower.some((w, i) => PREGNANT.test(w) && assertions[i] === 'present');
}

/** The O09 subterm of "Pregnancy, supervision of" the reason's sentence states, if one. */
function indexHighRisk(it: IndexTabular, s: Sentence): string | undefined {
  const assertions = assertWords(s.words);
  const { stems, from } = stemWords(s.words);
  const said = new Map<string, number>();
  for (let k = 0; k < stems.length; k++) if (assertions[from[k]] === 'present' && !said.has(stems[k])) said.set(stems[k], from[k]);
  const best = bestSubterms(subtermsOf(it, 'pregnancy > supervision of', 3, /^O09/, Infinity), said);
  return new Set(best.map((b) => b.code)).size === 1 ? best[0].code : undefined;
}

/** Z34.0- for a first pregnancy, Z34.8- for another, Z34.9- when the note does not say (Index: Pregnancy, supervision of, normal). */
function normalOf(cands: Candidates): string {
  const words = cands.ctx.sentences.flatMap((s) => s.lower);
  const first = words.some((w, i) => FIRST.test(w) || (w === 'first' && /^(pregnancy|baby|child)$/.test(words[i + 1] ?? '')));
  if (first) return 'Z34.0-';
  const later = words.some(
    (w, i) => LATER.test(w) || (/^(second|third|fourth|fifth)$/.test(w) && /^(pregnancy|baby|child)$/.test(words[i + 1] ?? '')),
  );
  return later ? 'Z34.8-' : 'Z34.9-';
}
