import type { CodifyModel } from '../../engine.js';

/** What each model level spends: more candidates and looser matching for more recall. */
export interface LevelConfig {
  /**
   * exact: a run of consecutive words is exactly a title's required words (hash lookup, fast);
   * window: candidate titles by rarest word, scored by coverage within a word window.
   */
  descriptions: 'exact' | 'window';
  /** share of a title's IDF weight the sentence has to cover (window) */
  minCoverage: number;
  /** extra words allowed between the words of a title (window) */
  slack: number;
  /** also look up codes through their second rarest word (window) */
  wideCandidates: boolean;
  /** title matches below this covered IDF weight are ignored (too generic) */
  minWeight: number;
  /** final assessments need this confidence */
  minConfidence: number;
  /** phrases learned from the CodiEsp training documents are matched too */
  learned: boolean;
  /** learned phrases need at least this share of their training documents to carry the code */
  learnedMinPrecision: number;
  /** laterality and acute/chronic stated near a code move it to the sibling that says so */
  qualifiers: boolean;
  /** a title match must lie within one clause; spread out, not across "and"/"or" (window) */
  clauses: boolean;
  /** how many words from its main term an Index subterm may be stated (in the same clause) */
  indexWindow: number;
}

// fast: exact titles (hash lookup) and the curated synonyms; balanced: titles read within a clause,
// plus the phrases learned from CodiEsp training documents;
// high-quality: titles spread over up to two extra words. Each level has its own acceptance
// model and threshold (learned/artifacts.ts, fitted by scripts/train-coder.ts).
export const LEVELS: Record<CodifyModel, LevelConfig> = {
  fast: {
    descriptions: 'exact',
    minCoverage: 1,
    slack: 0,
    wideCandidates: false,
    minWeight: 7,
    minConfidence: 60,
    learned: false,
    learnedMinPrecision: 1,
    qualifiers: true,
    clauses: false,
    indexWindow: 3,
  },
  balanced: {
    descriptions: 'window',
    minCoverage: 1,
    slack: 0,
    wideCandidates: false,
    minWeight: 7,
    minConfidence: 60,
    learned: true,
    learnedMinPrecision: 0.5,
    qualifiers: true,
    clauses: true,
    indexWindow: 8,
  },
  'high-quality': {
    descriptions: 'window',
    minCoverage: 1,
    slack: 2,
    wideCandidates: false,
    minWeight: 7,
    minConfidence: 60,
    learned: true,
    learnedMinPrecision: 0.35,
    qualifiers: true,
    clauses: true,
    indexWindow: 12,
  },
};
