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
  /** synonyms found feed the title search ("T2DM with nephropathy" reaches E11.21) */
  bridge: boolean;
  /** a title match must lie within one clause; spread out, not across "and"/"or" (window) */
  clauses: boolean;
}

// Tuned on CodiEsp train (see scripts/eval-codes.ts). Spreading a title over more words (slack)
// gains recall only with clause bounds and firm matches resolved first; partial titles
// (minCoverage < 1) and synonym bridging cost precision there.
export const LEVELS: Record<CodifyModel, LevelConfig> = {
  fast: { descriptions: 'exact', minCoverage: 1, slack: 0, wideCandidates: false, minWeight: 7, minConfidence: 60, bridge: false, clauses: false },
  balanced: { descriptions: 'window', minCoverage: 1, slack: 0, wideCandidates: false, minWeight: 7, minConfidence: 60, bridge: false, clauses: true },
  'high-quality': { descriptions: 'window', minCoverage: 1, slack: 2, wideCandidates: false, minWeight: 8, minConfidence: 60, bridge: false, clauses: true },
};
