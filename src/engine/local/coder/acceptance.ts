import type { CodeTable } from '../../../terminology/code-table.js';
import type { IndexTabular } from '../../../terminology/index-tabular.js';
import type { Candidate } from './candidate.js';
import type { AcceptanceModel, CoderArtifacts } from './learned/types.js';

/** The features the acceptance model weighs, in order (scripts/train-coder.ts fits them). */
export const FEATURES = [
  'bias',
  'lexicon',
  'learned',
  'description',
  'rule',
  'score',
  'log_weight',
  'log_words',
  'single_word',
  'unspecified_title',
  'other_title',
  'code_prior',
  'code_prior_known',
  'chapter_r',
  'chapter_z',
  'chapter_st',
  'neoplasm',
  'code_length',
  'uncertain_inpatient',
  'lexicon_and_title',
  'title_words',
  'log_prior_count',
  'learned_score',
  'index',
  'index_words',
  // The confidence model's own features (the acceptance model weighs the ones above): how firm an
  // Index reading is (every Index reading kept is firm, index-lookup.ts: so 'index' says that).
  'index_title_stated',
  'index_leaf',
  'index_depth',
  'present',
];

/** How many of FEATURES the acceptance model weighs (its weights and the gate stay as they were fitted). */
export const ACCEPTANCE_FEATURES = FEATURES.indexOf('index_title_stated');

export interface FeatureContext {
  table: CodeTable;
  priors: CoderArtifacts['priors'];
  /** codes proposed by more than one source in this note */
  multiSource: ReadonlySet<string>;
  it?: IndexTabular;
}

const logit = (p: number) => Math.log(p / (1 - p));

/**
 * Numbers describing how a candidate was found; the same function serves training and coding.
 * Only the candidate's own match counts (not how long the note is or how often it repeats), so a
 * note copied twice codes as it does once.
 */
export function featuresOf(c: Candidate, fx: FeatureContext): number[] {
  const m = c.found?.mention;
  const title = fx.table.descriptionAt(c.index);
  const words = m ? m.end - m.start + 1 : 1;
  const prior = fx.priors[c.code];
  // Smoothed share of right proposals of this code out of fold, toward a base rate of 0.5.
  const p = prior ? (prior[0] + 1) / (prior[1] + 2) : 0.5;
  return [
    1,
    Number(c.origin === 'lexicon'),
    Number(c.origin === 'learned'),
    Number(c.origin === 'description'),
    Number(c.origin === 'rule'),
    m ? m.score : 1,
    Math.log1p(m ? m.weight : 10),
    Math.log(words),
    Number(words === 1),
    Number(/unspecified/i.test(title)),
    Number(/^other\b/i.test(title)),
    logit(p),
    Number(prior !== undefined),
    Number(c.code.startsWith('R')),
    Number(c.code.startsWith('Z')),
    Number(/^[ST]/.test(c.code)),
    Number(/^C|^D[0-4]/.test(c.code)),
    c.code.length - 3,
    Number(c.assertion === 'uncertain'),
    Number(fx.multiSource.has(c.code)),
    Math.min(8, fx.table.index.requiredOf(c.index).length),
    Math.log1p(prior ? prior[1] : 0),
    c.origin === 'learned' && m ? m.score : 0,
    Number(c.origin === 'index'),
    c.origin === 'index' ? Math.min(4, m?.words?.length ?? 1) : 0,
    Number(c.origin === 'index' && m?.titleStated === true),
    Number(c.origin === 'index' && indexLeaf(c, fx)),
    c.origin === 'index' && m?.indexTerm !== undefined && fx.it ? Math.min(4, fx.it.level[m.indexTerm]) : 0,
    Number(c.assertion === 'present'),
  ];
}

/** The Index term the reading ended at gives this very code, billable: the descent reached a leaf, nothing completed. */
function indexLeaf(c: Candidate, fx: FeatureContext): boolean {
  const term = c.found?.mention.indexTerm;
  return term !== undefined && fx.it !== undefined && fx.it.codeOf(term).replace(/[.-]/g, '') === c.code;
}

/** P(the code is right): the model's logistic output, mapped through its isotonic calibration. */
export function probability(model: Pick<AcceptanceModel, 'weights' | 'calibration'>, x: readonly number[]): number {
  let z = 0;
  for (let i = 0; i < x.length; i++) z += (model.weights[i] ?? 0) * x[i];
  const p = 1 / (1 + Math.exp(-z));
  const steps = model.calibration;
  if (!steps?.length) return p;
  let value = steps[0][1];
  // (Indexed: a destructuring for-of makes an iterator per step where this is not optimized.)
  for (let k = 0; k < steps.length; k++) {
    if (p < steps[k][0]) break;
    value = steps[k][1];
  }
  return value;
}

/**
 * A firm candidate states its code outright: a curated name, or a whole official title of two
 * words or more. The acceptance model sets its confidence but does not drop it; the model's
 * threshold decides the weak ones (learned phrases, one-word or spread-out titles).
 */
export function isFirm(c: Candidate): boolean {
  const m = c.found?.mention;
  if (c.origin === 'rule' || c.named) return true;
  if (!m) return false;
  if (c.origin === 'lexicon') return true;
  // An Index path through a subterm the note states (a main term and a site, a type, a cause).
  if (c.origin === 'index') return (m.words?.length ?? 0) >= 2 && m.firm === true;
  return c.origin === 'description' && m.score >= 0.999 && m.end > m.start;
}
