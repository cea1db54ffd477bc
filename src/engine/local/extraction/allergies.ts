import { normalizeAsr, stripLeading } from './clean.js';
import { ALLERGY } from './cues/index.js';
import { interrogative } from './speech.js';
import type { Turn } from './transcript.js';

/**
 * The allergy line: the patient's answer to the clinician's allergy question. A plain "no" /
 * "none" answer is written "No known drug allergies"; any other answer is kept as the patient
 * said it (the classifier adds sentences that name an allergy elsewhere in the visit).
 */
export interface AllergyAnswer {
  none: boolean;
  text?: string; // the answer, when it names something
  lines: number[];
}

const NONE =
  /^(?:no|nope|none|nah|not that i know|not that i'm aware|no known|i don't have any|i don't think so|nothing)\b|\bno (?:known |drug |medication )?allergies\b|\bnot allergic\b/i;

const lastSentence = (text: string) =>
  normalizeAsr(text)
    .split(/(?<=[.!?])\s+/)
    .filter((x) => x.trim())
    .pop() ?? '';

export function allergyAnswers(turns: Turn[]): AllergyAnswer[] {
  const out: AllergyAnswer[] = [];
  for (let i = 0; i + 1 < turns.length; i++) {
    const q = turns[i];
    const a = turns[i + 1];
    if (q.speaker !== 'doctor' || !ALLERGY.test(q.text) || !interrogative(lastSentence(q.text))) continue;
    if (a.speaker !== 'patient' && a.speaker !== 'other') continue;
    const answer = stripLeading(normalizeAsr(a.text));
    const lines = [...q.lines.map((l) => l.line), ...a.lines.map((l) => l.line)];
    if (NONE.test(answer) && !/\b(?:except|but|only)\b/i.test(answer)) out.push({ none: true, lines });
    else if (answer && !/^yes\.?$/i.test(answer)) out.push({ none: false, text: answer, lines });
  }
  return out;
}
