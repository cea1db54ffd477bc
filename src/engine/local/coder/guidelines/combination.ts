import { stemWords, wordStems } from '../../../../terminology/text-normalize.js';
import { assertWords } from '../assertions.js';
import { type Candidate, type Candidates, dotted, sentenceAt } from '../candidate.js';

const DIABETES = ['E08', 'E09', 'E10', 'E11', 'E13'];

/** Words of the sentences holding these candidates, lower case. */
function wordsNear(cands: Candidates, of: readonly Candidate[]): Set<string> {
  const out = new Set<string>();
  for (const c of of) {
    for (const sp of c.spans) {
      const s = sentenceAt(cands.ctx, sp.start, sp.end);
      if (s) for (const w of s.lower) out.add(w);
    }
  }
  return out;
}

/**
 * Combination codes and the "with" convention (I.A.15): diabetes "with" neuropathy, chronic kidney
 * disease, hyperglycemia or hypoglycemia is one combination code, presumed linked unless the note
 * says otherwise; hypertension with chronic kidney disease or heart failure is I12, I11 or I13
 * (I.C.9.a); COPD with exacerbation J44.1, with a lower respiratory infection J44.0 (I.C.10.a).
 */
export function applyCombinations(cands: Candidates): void {
  restoreCkd(cands);
  ckdStage(cands);
  diabetes(cands);
  hypertension(cands);
  copd(cands);
}

/**
 * The type of diabetes the note states (I.C.4.a): the category whose distinguishing title words
 * ("Type 1" of "Type 1 diabetes mellitus") the sentence of one of its readings states. A code read
 * under another type (a name such as "diabetic retinopathy" points at E11.319) moves to the stated
 * type's code with the same subdivisions; with no type stated, E11 is the default (I.C.4.a.2).
 */
function statedFamily(cands: Candidates): string | undefined {
  const { table } = cands.ctx;
  const titles = DIABETES.map((f) => {
    // The category's title, as its code without complications reads before "without".
    const i = table.indexOf(`${f}9`);
    return new Set(i === undefined ? [] : stemWords(table.descriptionAt(i).split(' without')[0].split(/\s+/)).stems);
  });
  const common = [...titles[0]].filter((s) => titles.every((t) => t.has(s)));
  const stated = new Set<string>();
  DIABETES.forEach((family, k) => {
    const own = [...titles[k]].filter((s) => !common.includes(s));
    if (own.length === 0) return;
    const readings = cands.list.filter((c) => c.code.startsWith(family) && c.assertion === 'present' && c.origin !== 'learned');
    for (const c of readings) {
      const near = new Set<string>();
      for (const w of wordsNear(cands, [c])) for (const st of wordStems(w)) near.add(st);
      if (own.every((s) => near.has(s))) stated.add(family);
    }
  });
  return stated.size === 1 ? [...stated][0] : undefined;
}

function diabetes(cands: Candidates): void {
  const typed = statedFamily(cands);
  if (typed) {
    for (const c of cands.statedIn(...DIABETES.filter((f) => f !== typed))) {
      const moved = cands.assign(`${typed}${c.code.slice(3)}`, `the note states the type of diabetes (${typed}, I.C.4.a)`, [c]);
      if (moved) cands.discard(c, `Discarded: the note states the type of diabetes; coded ${dotted(moved.code)}.`);
    }
  }
  const dm = cands.statedIn(...DIABETES);
  if (dm.length === 0) return;
  const family = typed ?? dm[0].code.slice(0, 3);
  const made: Candidate[] = [];
  const link = (code: string, why: string, from: Candidate[], replace: Candidate[]) => {
    const c = cands.assign(`${family}${code}`, `combination code for diabetes with ${why} (the "with" convention, I.A.15)`, [
      dm[0],
      ...from,
    ]);
    if (!c) return;
    made.push(c);
    for (const r of replace)
      if (r !== c) cands.discard(r, `Discarded: diabetes with ${why} is the combination code ${dotted(c.code)} (I.A.15).`);
  };
  // Neuropathy: polyneuropathy/peripheral E1x.42, autonomic E1x.43, mononeuropathy E1x.41, else E1x.40.
  const neuro = cands.statedIn('G60', 'G61', 'G62', 'G63', 'G64', 'G90', 'G56', 'G57', 'G58', 'E1140', 'E1040', 'E1340');
  if (neuro.length) {
    const w = wordsNear(cands, neuro);
    const code = w.has('autonomic')
      ? '43'
      : [...w].some((x) => /^(poly|peripheral|polyneuropath)/.test(x)) || neuro.some((n) => n.code.startsWith('G62'))
        ? '42'
        : /mononeuropath/.test([...w].join(' '))
          ? '41'
          : '40';
    link(
      code,
      code === '42' ? 'polyneuropathy' : 'neuropathy',
      neuro,
      neuro.filter((n) => !n.code.startsWith(family) || n.code === `${family}40`),
    );
  }
  const ckd = presumedLinked(cands, cands.statedIn('N18'));
  if (ckd.length) link('22', 'chronic kidney disease', ckd, cands.statedIn(`${family}21`)); // the N18 stage code stays
  const hyper = cands.statedIn('R739', 'R7309');
  const uncontrolled = [...wordsNear(cands, dm)].some((w) => /^(uncontrolled|poorly|hyperglycemia|hyperglycaemia|decompensated)$/.test(w));
  if (hyper.length || uncontrolled) link('65', 'hyperglycemia', hyper, hyper);
  const hypo = cands.statedIn('E162', 'E160', 'E161');
  if (hypo.length) link('649', 'hypoglycemia', hypo, hypo);
  const retina = cands.statedIn('H3500', 'H3510');
  if (retina.length) link('319', 'retinopathy', retina, retina);
  const gastroparesis = cands.statedIn('K3184');
  if (gastroparesis.length) link('43', 'gastroparesis (autonomic neuropathy)', gastroparesis, []);
  const pad = cands.statedIn('I739', 'I7020');
  if (pad.length) link('51', 'peripheral angiopathy', pad, pad);
  const ulcer = cands.statedIn('L97');
  if (ulcer.length) link('621', 'foot ulcer', ulcer, []);
  // "Without complications" no longer holds.
  const complicated = cands.finalsIn(family).filter((c) => !c.code.startsWith(`${family}9`) && !c.code.startsWith(`${family}A`));
  if (made.length || complicated.length)
    for (const c of cands.finalsIn(`${family}9`))
      cands.discard(
        c,
        `Discarded: diabetes without complications, but the note documents ${[...made, ...complicated].map((m) => dotted(m.code)).join(', ')}.`,
      );
}

// "Unrelated to", "not related to", "not due to", "not caused by", "not from" the other condition.
const UNRELATED = /^(unrelated|independent)$/;
const NOT_LINK = /^(related|due|caused|secondary|attributed|attributable|from|linked)$/;

/** Whether a sentence's words say two conditions are unrelated ("not due to", "unrelated to"). */
export function statesUnrelated(lower: readonly string[]): boolean {
  return lower.some((w, i) => UNRELATED.test(w) || (w === 'not' && NOT_LINK.test(lower[i + 1] ?? '')));
}

/**
 * The candidates whose sentence does not say they are unrelated to another condition: the "with"
 * presumption holds "unless the documentation clearly states the conditions are unrelated" (I.A.15).
 */
function presumedLinked(cands: Candidates, list: Candidate[]): Candidate[] {
  return list.filter((c) =>
    c.spans.every((sp) => {
      const s = sentenceAt(cands.ctx, sp.start, sp.end);
      return !s || !statesUnrelated(s.lower);
    }),
  );
}

function hypertension(cands: Candidates): void {
  const htn = cands.statedIn('I10', 'I11', 'I12', 'I13', 'I16');
  if (htn.length === 0) return;
  const ckd = presumedLinked(cands, cands.statedIn('N18'));
  const hf = presumedLinked(cands, cands.statedIn('I50'));
  // A title already stating the pair counts as its parts ("hypertensive heart disease with heart failure").
  const hasCkd = ckd.length > 0 || htn.some((h) => /^I1[23]/.test(h.code));
  const hasHf = hf.length > 0 || htn.some((h) => h.code === 'I110' || h.code === 'I130' || h.code === 'I132');
  if (!hasCkd && !hasHf) return;
  const stage5 = ckd.some((c) => c.code === 'N185' || c.code === 'N186');
  let code: string;
  let why: string;
  if (hasCkd && hasHf) {
    code = stage5 ? 'I13.2' : 'I13.0';
    why = 'hypertension with heart failure and chronic kidney disease';
  } else if (hasCkd) {
    code = stage5 ? 'I12.0' : 'I12.9';
    why = 'hypertension with chronic kidney disease';
  } else {
    code = 'I11.0';
    why = 'hypertension with heart failure';
  }
  const c = cands.assign(code, `combination code for ${why}, presumed linked (I.C.9.a)`, [htn[0], ...ckd, ...hf]);
  if (!c) return;
  for (const h of cands.finalsIn('I10', 'I11', 'I12', 'I13')) {
    if (h !== c) cands.discard(h, `Discarded: ${why} is coded ${dotted(c.code)} (I.C.9.a; I10 Excludes1 I11-I13).`);
  }
}

const EXACERBATION = /^(exacerbation|exacerbated|exacerbations|flare|flare-up|decompensated|decompensation|aecopd)$/;
const COPD_WORD = /^(copd|aecopd|coad)$/;

/**
 * An exacerbation the note asserts, in a sentence that reads COPD or names it ("COPD with acute
 * exacerbation" in the assessment, the HPI first). A denied one ("no exacerbation in a year") is
 * not: J44.1 needs a documented exacerbation (Index: Disease, lung, obstructive, with exacerbation).
 */
function exacerbationStated(cands: Candidates, base: readonly Candidate[]): boolean {
  const read = new Set(base.flatMap((c) => c.spans.map((sp) => sentenceAt(cands.ctx, sp.start, sp.end))));
  return cands.ctx.sentences.some((s) => {
    const named =
      read.has(s) || s.lower.some((w) => COPD_WORD.test(w)) || (s.lower.includes('obstructive') && s.lower.includes('pulmonary'));
    if (!named || !s.lower.some((w) => EXACERBATION.test(w))) return false;
    const asserted = assertWords(s.words);
    return s.lower.some((w, i) => EXACERBATION.test(w) && asserted[i] === 'present');
  });
}

function copd(cands: Candidates): void {
  const base = cands.statedIn('J44');
  if (base.length === 0) return;
  const infection = cands.statedIn('J12', 'J13', 'J14', 'J15', 'J16', 'J17', 'J18', 'J20', 'J21', 'J22');
  const made: Candidate[] = [];
  if (infection.length) {
    const c = cands.assign(
      'J44.0',
      'combination code for COPD with an acute lower respiratory infection (I.C.10.a); the infection is coded too',
      [base[0], ...infection],
    );
    if (c) made.push(c);
  }
  if (exacerbationStated(cands, base)) {
    const c = cands.assign('J44.1', 'combination code for COPD with (acute) exacerbation (I.C.10.a)', [base[0]]);
    if (c) made.push(c);
  }
  if (made.length === 0) return;
  const names = made.map((m) => dotted(m.code)).join(' and ');
  for (const b of cands.finalsIn('J44'))
    if (!made.includes(b)) cands.discard(b, `Discarded: COPD in this note is coded ${names} (I.C.10.a).`);
}

const STAGE: Record<string, string> = {
  '1': 'N18.1',
  i: 'N18.1',
  '2': 'N18.2',
  ii: 'N18.2',
  '3': 'N18.30',
  iii: 'N18.30',
  '3a': 'N18.31',
  iiia: 'N18.31',
  '3b': 'N18.32',
  iiib: 'N18.32',
  '4': 'N18.4',
  iv: 'N18.4',
  '5': 'N18.5',
  v: 'N18.5',
};

/**
 * Chronic kidney disease with its stage stated ("CKD stage 3b", or the stage right after the name:
 * "CKD 3b", "chronic kidney disease IV") is coded by stage (N18.1-N18.6).
 */
function ckdStage(cands: Candidates): void {
  for (const c of cands.statedIn('N189')) {
    const w = [...wordsNear(cands, [c])];
    const sentence = sentenceAt(cands.ctx, c.spans[0].start, c.spans[0].end);
    if (!sentence) continue;
    const lower = sentence.lower;
    const at = lower.indexOf('stage');
    const after = sentence.starts.findIndex((s) => s >= c.spans[0].end);
    const stage = at >= 0 ? STAGE[lower[at + 1] ?? ''] : after >= 0 ? STAGE[lower[after]] : undefined;
    const esrd = w.includes('esrd') || (w.includes('end') && w.includes('stage') && w.includes('renal'));
    const code = esrd ? 'N18.6' : stage;
    if (!code) continue;
    const made = cands.assign(code, `chronic kidney disease is coded by its documented stage (${code})`, [c]);
    if (made && made !== c) cands.discard(c, `Discarded: the note documents the stage of chronic kidney disease; coded ${code}.`);
  }
}

/**
 * I12 and I13 say "use additional code to identify the stage of chronic kidney disease": a CKD
 * code set aside as less specific than a hypertensive CKD title comes back.
 */
function restoreCkd(cands: Candidates): void {
  if (cands.statedIn('N18').length || !cands.statedIn('I12', 'I13').length) return;
  const ckd = cands.list.find(
    (c) => !c.final && c.code.startsWith('N18') && c.assertion === 'present' && c.found?.lessSpecificThan !== undefined,
  );
  if (ckd) {
    cands.assign(
      ckd.code,
      'hypertensive chronic kidney disease needs an additional code for the stage of chronic kidney disease (I12, I13)',
      [],
      ckd.spans,
    );
  }
}
