import type { CodifyModel } from '../../engine.js';

/** What each model level spends: more candidates and looser matching for more recall. */
export interface LevelConfig {
  /** match official titles at all (fast: only titles stated word for word) */
  descriptions: 'exact' | 'window';
  /** share of a title's IDF weight the sentence has to cover */
  minCoverage: number;
  /** extra words allowed between the words of a title */
  slack: number;
  /** also look up codes through their second rarest word */
  wideCandidates: boolean;
  /** title matches below this covered IDF weight are ignored (too generic) */
  minWeight: number;
  /** final assessments need this confidence */
  minConfidence: number;
  /** synonyms found feed the title search ("T2DM with nephropathy" reaches E11.21) */
  bridge: boolean;
  /** a title match must lie within one clause (no comma, semicolon or bracket inside) */
  clauses: boolean;
  /** keep loose title matches only where firm evidence of the same category is in the note */
  gateLoose: boolean;
}

export const LEVELS: Record<CodifyModel, LevelConfig> = {
  fast: { descriptions: 'exact', minCoverage: 1, slack: 0, wideCandidates: false, minWeight: 7, minConfidence: 60, bridge: false, clauses: false, gateLoose: false },
  balanced: { descriptions: 'exact', minCoverage: 1, slack: 0, wideCandidates: false, minWeight: 7, minConfidence: 60, bridge: false, clauses: true, gateLoose: false },
  'high-quality': { descriptions: 'window', minCoverage: 1, slack: 1, wideCandidates: false, minWeight: 7, minConfidence: 60, bridge: false, clauses: true, gateLoose: true },
};
