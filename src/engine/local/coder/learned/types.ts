import type { CodifyModel } from '../../../engine.js';

/** A phrase (stems joined by spaces) that coders assigned `code` to in the training documents. */
export type LearnedEntry = [stems: string, code: string, precision: number, support: number];

/** Logistic regression over the candidate features (acceptance.ts), and the level's threshold. */
export interface AcceptanceModel {
  weights: number[];
  /** final codes need at least this probability (0-1), after calibration */
  threshold: number;
  /** isotonic map of the model's raw probability to the share of right codes out of fold: [from, value] steps */
  calibration?: Array<[number, number]>;
  /**
   * The confidence a code reports: a model over every feature (the Index reading's firmness too),
   * fitted on CodiEsp and the tuned guideline cases; without it, the acceptance model's probability.
   */
  confidence?: { weights: number[]; calibration: Array<[number, number]> };
}

/** Everything scripts/train-coder.ts learns; committed as learned/artifacts.ts. */
export interface CoderArtifacts {
  /** how they were made: documents, folds, date; for the README and the eval */
  trainedOn: string;
  /** CodiEsp document ids the artifacts saw (eval:codes evaluates on the others) */
  trainIds: string[];
  features: string[];
  lexicon: LearnedEntry[];
  /** per code: [right, proposed] out of fold on the training documents */
  priors: Record<string, [number, number]>;
  models: Record<CodifyModel, AcceptanceModel>;
}
