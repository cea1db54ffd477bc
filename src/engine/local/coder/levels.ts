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
  /** rescore by agreement between mentions of the same category across the note */
  rescore: boolean;
}

export const LEVELS: Record<CodifyModel, LevelConfig> = {
  fast: { descriptions: 'exact', minCoverage: 1, slack: 0, wideCandidates: false, minWeight: 6, minConfidence: 60, rescore: false },
  balanced: { descriptions: 'window', minCoverage: 1, slack: 2, wideCandidates: false, minWeight: 8, minConfidence: 60, rescore: false },
  'high-quality': { descriptions: 'window', minCoverage: 0.9, slack: 3, wideCandidates: true, minWeight: 8, minConfidence: 66, rescore: true },
};
