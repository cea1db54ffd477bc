// Trains the local coder's learned parts on CodiEsp train, minus the held-apart fifth that
// eval:codes reports on: (1) a phrase -> code lexicon from document-level co-occurrence, and
// (2) per level, a logistic-regression acceptance model over candidate features, with the
// threshold that maximises micro-F1, and (3) per level, the confidence model: the same features and
// how firm an Index reading is, fitted on those candidates and the tuned guideline cases' (never a
// held-apart set), so a firm reading of a plain statement reports the confidence it earns.
// Everything is fitted out of fold (4 inner folds), so the model learns how far to trust a lexicon
// and priors that never saw the document they score.
// Writes src/engine/local/coder/learned/artifacts.ts. Deterministic: `npm run train:coder`.
// `--feedback FILE` adds the clinicians' signed notes (an export of GET /api/v1/feedback: JSON
// `{items}`, a JSON array or JSON lines) to the training documents: their signed text with the
// signed codes, in every inner fold like a CodiEsp document (never in the held-apart fifth).
import { parseArgs } from 'node:util';
import { writeFileSync } from 'node:fs';
import type { CodifyModel } from '../src/engine/engine.js';
import { ACCEPTANCE_FEATURES, FEATURES, isFirm, probability } from '../src/engine/local/coder/acceptance.js';
import { codifyCandidates } from '../src/engine/local/coder/index.js';
import type { AcceptanceModel, CoderArtifacts } from '../src/engine/local/coder/learned/types.js';
import { OFFICIAL_CASES } from '../test/engine/fixtures/official-guideline-cases.js';
import { readCodiEspSplit, type CodiEspDoc } from './lib/codiesp.js';
import { feedbackDocs } from './lib/coder-feedback.js';
import { CODIESP_DIR, idHash, isHeldApart, loadFullTable } from './lib/full-table.js';
import { docPhrases, LEXICON_OPTIONS, learnLexicon } from './lib/learn-lexicon.js';
import { fitIsotonic } from './lib/isotonic.js';
import { fitLogistic } from './lib/logistic.js';

const OUT = 'src/engine/local/coder/learned/artifacts.ts';
const MODELS: CodifyModel[] = ['fast', 'balanced', 'high-quality'];
const INNER = 4;

interface Row {
  doc: string;
  code: string;
  /** firm: kept whatever the model says */
  rule: boolean;
  /** right, counting a code whose parent the gold holds from the 2018 edition (isRight) */
  label: number;
  /** right as eval:codes scores it: the gold holds this very code */
  strict: number;
  features: () => number[];
}

const { table } = await loadFullTable();
const { values: args } = parseArgs({ options: { feedback: { type: 'string' } } });
const feedback = args.feedback ? feedbackDocs(args.feedback) : [];
const codiesp = await readCodiEspSplit(CODIESP_DIR, 'train');
const all = [...codiesp, ...feedback];
const train = [...codiesp.filter((d) => !isHeldApart(d.id)), ...feedback];
console.log(
  `training on ${train.length - feedback.length} of ${codiesp.length} CodiEsp train documents (${codiesp.length - (train.length - feedback.length)} held apart)` +
    (args.feedback ? ` and ${feedback.length} signed notes from ${args.feedback}` : ''),
);
const phrases = new Map(all.map((d) => [d.id, docPhrases(d.text, LEXICON_OPTIONS.maxLen)]));
const fold = (d: CodiEspDoc) => (idHash(d.id) >>> 4) % INNER;

// Out-of-fold candidates: each document coded with a lexicon and priors learned without it.
const rows: Record<CodifyModel, Row[]> = { fast: [], balanced: [], 'high-quality': [] };
// Codes the guideline rules made: their share of right ones becomes their confidence.
const ruled: Record<CodifyModel, Row[]> = { fast: [], balanced: [], 'high-quality': [] };
const priorSlots: Array<CoderArtifacts['priors']> = [];
// The tuned guideline cases' candidates whose code the case names (must: right, must not: wrong),
// coded with fold 0's lexicon and priors: firm readings of explicit statements, which CodiEsp's
// sparse gold rarely confirms. Only the confidence model sees them; never the held-apart sets.
const cases: Record<CodifyModel, Row[]> = { fast: [], balanced: [], 'high-quality': [] };
for (let k = 0; k < INNER; k++) {
  const inner = train.filter((d) => fold(d) !== k);
  const lexicon = learnLexicon(table, inner, phrases);
  const priors: CoderArtifacts['priors'] = {};
  priorSlots.push(priors);
  const artifacts = { ...placeholder(), lexicon, priors };
  for (const d of train.filter((x) => fold(x) === k)) {
    for (const model of MODELS) {
      codifyCandidates(table, d.text, model, artifacts, (stage, c, features) => {
        const dotted = c.code.length > 3 ? `${c.code.slice(0, 3)}.${c.code.slice(3)}` : c.code;
        const row = {
          doc: d.id,
          code: c.code,
          rule: isFirm(c),
          label: Number(isRight(c.code, d.gold)),
          strict: Number(d.gold.has(dotted)),
          features,
        };
        (stage === 'raw' ? rows : ruled)[model].push(row);
      });
    }
  }
  if (k === 0)
    for (const c of OFFICIAL_CASES)
      for (const model of MODELS)
        codifyCandidates(table, c.note, model, artifacts, (stage, cand, features) => {
          const dotted = cand.code.length > 3 ? `${cand.code.slice(0, 3)}.${cand.code.slice(3)}` : cand.code;
          const right = c.must.includes(dotted);
          const wrong = c.mustNot.some((r) => (r.endsWith('-') ? dotted.startsWith(r.slice(0, -1)) : r === dotted));
          if (stage !== 'raw' || right === wrong) return;
          const label = Number(right);
          cases[model].push({ doc: c.rule, code: cand.code, rule: isFirm(cand), label, strict: label, features });
        });
  console.log(`fold ${k}: lexicon of ${lexicon.length} phrases from ${inner.length} documents`);
}
// Priors of fold k: right/proposed per code at the balanced level in the other folds.
const foldOf = new Map(train.map((d) => [d.id, fold(d)]));
for (let k = 0; k < INNER; k++)
  Object.assign(priorSlots[k], priorsFrom([...rows.balanced, ...ruled.balanced].filter((r) => foldOf.get(r.doc) !== k)));

const goldTotal = train.reduce((n, d) => n + [...d.gold].length, 0);
const models = {} as Record<CodifyModel, AcceptanceModel>;
for (const model of MODELS) {
  const all = rows[model].map((r) => r.features());
  const x = all.map((f) => f.slice(0, ACCEPTANCE_FEATURES));
  const y = rows[model].map((r) => r.label);
  const weights = fitLogistic(x, y, 1).map((w) => Math.round(w * 1e4) / 1e4);
  const raw = x.map((f) => 1 / (1 + Math.exp(-f.reduce((z, v, i) => z + v * weights[i], 0))));
  // The model ranks with edition-aware labels; the confidence it reports is the share of codes
  // right as eval:codes scores them, so the reliability table holds on that measure.
  const calibration = fitIsotonic(
    raw,
    rows[model].map((r) => r.strict),
  );
  const p = x.map((f) => probability({ weights, calibration }, f));
  let best = { t: 0.5, f1: 0 };
  for (let t = 0.05; t <= 0.9; t += 0.01) {
    let tp = 0;
    let fp = 0;
    rows[model].forEach((r, i) => {
      if (!r.rule && p[i] < t) return;
      if (r.strict) tp++;
      else fp++;
    });
    const f1 = (2 * tp) / (2 * tp + fp + (goldTotal - tp));
    if (f1 > best.f1) best = { t: Math.round(t * 100) / 100, f1 };
  }
  models[model] = { weights, threshold: best.t, calibration, confidence: confidenceModel(all, rows[model], cases[model]) };
  console.log(`${model}: ${rows[model].length} out-of-fold candidates, threshold ${best.t}, out-of-fold F1 ${best.f1.toFixed(3)}`);
}

const artifacts: CoderArtifacts = {
  trainedOn:
    `CodiEsp train, ${train.length - feedback.length} of ${codiesp.length} documents (one in five held apart by id hash)` +
    `${feedback.length ? `, ${feedback.length} signed notes (feedback)` : ''}; ${INNER} inner folds; scripts/train-coder.ts`,
  trainIds: train.map((d) => d.id).sort(),
  features: FEATURES,
  lexicon: learnLexicon(table, train, phrases),
  priors: priorsFrom([...rows.balanced, ...ruled.balanced]),
  models,
};
writeFileSync(
  OUT,
  `// Written by scripts/train-coder.ts (npm run train:coder); do not edit by hand.\n` +
    `import type { CoderArtifacts } from './types.js';\n\n` +
    `export const ARTIFACTS: CoderArtifacts | null = ${JSON.stringify(artifacts)};\n`,
);
console.log(`wrote ${OUT}: ${artifacts.lexicon.length} phrases, ${Object.keys(artifacts.priors).length} code priors`);

/**
 * Right when the gold has the code, or has its parent where the parent is no longer a billable
 * code: CodiEsp was coded with the 2018 edition, and R05 (cough) or R51 (headache) have since
 * been split (R05.9, R51.9). Without this the model would learn that "cough" is never R05.9.
 */
function isRight(code: string, gold: ReadonlySet<string>): boolean {
  const dotted = (c: string) => (c.length > 3 ? `${c.slice(0, 3)}.${c.slice(3)}` : c);
  if (gold.has(dotted(code))) return true;
  const parent = code.slice(0, -1);
  return parent.length >= 3 && !table.isBillable(parent) && gold.has(dotted(parent));
}

/** Per code: right as eval scores it (strict), and proposed; a confidence feature and the confidence of rule-made codes. */
function priorsFrom(list: Row[]): CoderArtifacts['priors'] {
  const out: CoderArtifacts['priors'] = {};
  for (const r of list) {
    const p = (out[r.code] ??= [0, 0]);
    p[0] += r.strict;
    p[1] += 1;
  }
  return out;
}

/**
 * The confidence a level reports: a logistic model over every feature, the Index reading's
 * firmness too, fitted on the out-of-fold CodiEsp candidates and the tuned guideline cases'
 * (each case row weighs CASE_WEIGHT times in the fit: 49 short notes beside 410 long documents),
 * mapped through an isotonic calibration on the same rows, each once. It does not gate: the acceptance model does.
 */
function confidenceModel(codiesp: number[][], labelled: Row[], caseRows: Row[]): NonNullable<AcceptanceModel['confidence']> {
  const CASE_WEIGHT = 10;
  const x = [...codiesp];
  const y = labelled.map((r) => r.strict);
  for (const r of caseRows)
    for (let k = 0; k < CASE_WEIGHT; k++) {
      x.push(r.features());
      y.push(r.label);
    }
  const weights = fitLogistic(x, y, 1).map((w) => Math.round(w * 1e4) / 1e4);
  // Calibrated on each row once: a repeated case would narrow its step's bound without evidence.
  const once = [...codiesp, ...caseRows.map((r) => r.features())];
  const labels = [...y.slice(0, codiesp.length), ...caseRows.map((r) => r.label)];
  const raw = once.map((f) => 1 / (1 + Math.exp(-f.reduce((z, v, i) => z + v * weights[i], 0))));
  console.log(`  confidence: ${codiesp.length} CodiEsp and ${caseRows.length} guideline-case candidates (x${CASE_WEIGHT})`);
  return { weights, calibration: fitIsotonic(raw, labels) };
}

function placeholder(): CoderArtifacts {
  const zero = { weights: [], threshold: 0 };
  return {
    trainedOn: '',
    trainIds: [],
    features: FEATURES,
    lexicon: [],
    priors: {},
    models: { fast: zero, balanced: zero, 'high-quality': zero },
  };
}
