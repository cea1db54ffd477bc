import { ASSESS_STRONG, ASSESS_WEAK, DIAGNOSIS } from './assessment.js';
import { EXAM_STRONG, FINDING_STATED, NAMED_TEST, RESULT_STRONG } from './exam.js';
import { PLAN_ACTION, PLAN_STRONG, PLAN_WEAK } from './plan.js';

/**
 * The section cues in one place: per section, the strong pattern (places a clinician's sentence
 * whatever the visit's phase), the weak one (a feature that leans a sentence toward the section)
 * and, for the plan, the action verbs. Every pattern sees user text and is linear.
 */
export const CUES = {
  plan: { strong: PLAN_STRONG, weak: PLAN_WEAK, action: PLAN_ACTION },
  assessment: { strong: ASSESS_STRONG, weak: ASSESS_WEAK, diagnosis: DIAGNOSIS },
  exam: { strong: EXAM_STRONG, named: NAMED_TEST, stated: FINDING_STATED },
  results: { strong: RESULT_STRONG },
} as const;

export { ASSESS_STRONG, NAMED_TEST, PLAN_ACTION, PLAN_STRONG };

/** A sentence the clinician says about what will happen, not what happened (for the plan). */
export function planCue(text: string): boolean {
  return PLAN_STRONG.test(text);
}

export function assessCue(text: string): boolean {
  return ASSESS_STRONG.test(text);
}

/** A diagnosis stated by the clinician (see assessment.ts): the assessment, whatever the phase. */
export function diagnosisCue(text: string): boolean {
  return DIAGNOSIS.test(text);
}

export function examCue(text: string): boolean {
  return NAMED_TEST.test(text) || EXAM_STRONG.test(text);
}

/** A finding: an exam cue or a body part's state said outright. */
export function findingCue(text: string): boolean {
  return examCue(text) || FINDING_STATED.test(text);
}

export function resultCue(text: string): boolean {
  return RESULT_STRONG.test(text) && !/\b(?:will|going to|gonna|let's|i'll|we'll|order|get)\b/i.test(text);
}

export const ALLERGY = /\ballerg(?:y|ies|ic)\b|\bnkda\b/i;
