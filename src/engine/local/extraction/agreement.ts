import type { Evidenced } from './evidenced.js';
import type { Turn } from './transcript.js';

/**
 * "The patient understands and agrees with the plan": written only when, after the clinician's
 * last orders, the patient says so ("okay", "sounds good", "that makes sense"), and cited to that line.
 */
const AGREES =
  /^(?:\[?\w*\]?\s*)?(?:yes|yeah|okay|ok|sure|alright|all right|sounds good|that sounds good|that makes sense|got it|perfect|great|will do|i understand|i will|i can do that)\b/i;
const DISAGREES = /\b(?:no|not sure|don't want|won't|rather not|worried)\b/i;

export function agreement(turns: Turn[], planLines: number[], subject: string): Evidenced | undefined {
  if (!planLines.length) return undefined;
  const lastPlan = Math.max(...planLines);
  const after = turns.filter((t) => (t.speaker === 'patient' || t.speaker === 'other') && t.lines[0].line > lastPlan - 3);
  const yes = after.find((t) => AGREES.test(t.text.trim()) && !DISAGREES.test(t.text));
  if (!yes) return undefined;
  const who = subject.charAt(0).toUpperCase() + subject.slice(1);
  return { text: `${who} understands and agrees with the recommended plan.`, lines: [yes.lines[0].line] };
}
