import { examCue, resultCue } from './cues/index.js';

/**
 * Visit phases. A visit moves from history to examination, results and assessment/plan;
 * the clinician's own statements ("let's do a physical exam", "your x-ray shows", "for your
 * first problem") mark the transitions.
 */
export type Phase = 'history' | 'exam' | 'results' | 'plan';
export const PHASE_ORDER: Record<Phase, number> = { history: 0, exam: 1, results: 2, plan: 3 };

const EXAM =
  /\b(physical exam(?:ination)?|(?:do|perform|start) (?:a |an |your )?(?:quick )?exam|examine you|take a (?:quick )?look|listen to (?:you|him|her|your (?:heart|lungs|chest))|let me (?:check|examine|feel|look)|on (?:your |my )?exam(?:ination)?|(?:my|the|your|an?) exam\b|vital signs|your vitals)\b/i;
const RESULTS =
  /\b(x-?rays?|results?|mri|ct scan|labs?|lab work|blood ?work|echocardiogram|ekg|ecg|ultrasound|a1c|imaging|biopsy|mammogram)\b.*\b(show|shows|showed|reveal|revealed|reveals|demonstrat\w*|came back|look(?:s|ed)?|see|normal|reviewed?)\b|\b(?:look(?:ing)? at|review(?:ed|ing)?) (?:your|the) (?:results|x-?ray|labs|mri|imaging|echo\w*|blood ?work)/i;
const PLAN =
  /\b(assessment and plan|here's what i(?:'m| am) thinking|what i(?:'m| am) thinking|(?:so |and )?my plan|talk about (?:the |your |my )?(?:plan|treatment)|my (?:assessment|impression|plan)|(?:the|our|my) plan|for your (?:first |second |third |last )?(?:problem|issue)|(?:my |the )?diagnosis|talk about (?:my|the|your) (?:assessment|plan|diagnosis)|what i(?:'d| would) (?:like|recommend) (?:to do|is)|in terms of (?:your )?(?:treatment|plan)|impression)\b/i;

const VITAL_READING =
  /\b(?:blood pressure|temperature|temp|heart rate|pulse|oxygen|o2 sat\w*|saturation|weight|respiratory rate)\b(?: (?:today|here|in the office))? (?:is|was|of|at) (?:\w+ )?\d/i;

/** The phase a clinician statement announces, if any. */
export function phaseCue(text: string, isQuestion: boolean): Phase | undefined {
  if (isQuestion) return undefined;
  if (PLAN.test(text)) return 'plan';
  if (RESULTS.test(text) || resultCue(text)) return 'results';
  // A finding stated outright ("there is an effusion", "your blood pressure is 148/92") starts the exam.
  if (EXAM.test(text) || examCue(text) || VITAL_READING.test(text)) return 'exam';
  return undefined;
}
