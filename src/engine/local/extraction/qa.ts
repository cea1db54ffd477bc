import { lexicon } from './lexicon.js';
import { stem } from './nlp.js';
import type { Turn } from './transcript.js';
import { normalizeAsr, stripLeading } from './clean.js';
import { interrogative } from './speech.js';

/**
 * Pairs a clinician's closed question with the patient's short answer:
 * "any fever or chills?" + "no." -> a negative finding "fever or chills".
 */
export interface Finding {
  turn: number; // the answer's turn
  lines: number[]; // the question's and the answer's transcript lines
  topic: string;
  present: boolean;
}

const ASKS = [
  /^(?:(?:and|so|now|also|then|any|but)\s+)*(?:do|did|does|have|has|are|were|is|was|had|can|could)\s+(?:you|he|she|they|the (?:baby|patient))\s+(?:ever\s+|still\s+|also\s+|recently\s+)?(?:been\s+)?(?:had|have|having|hear|heard|noticed?|noticing|experienced?|experiencing|get|got|getting|gotten|feel|felt|feeling|seen?|suffer\w*|develop\w*|run|running)?\s*(?:any\s+|a\s+|an\s+)?(.+)$/i,
  /^(?:(?:and|so|now|also|then|but)\s+)*(?:any|no)\s+(.+)$/i,
  /^(?:(?:and|so|now|also|then|but)\s+)*(?:how|what)\s+about\s+(?:any\s+)?(.+)$/i,
  /^(?:(?:and|so|now|also|then|but)\s+)*(?:is\s+there|are\s+there)\s+(?:any\s+)?(.+)$/i,
];

const TRAIL =
  /\s*(?:,?\s*(?:or )?(?:anything|something) (?:like that|else)|at all|lately|recently|currently|right now|today|or not|with that|with it|either|too|as well)\s*$/i;
const NO =
  /^(?:no|nope|nah|not really|never|none|nothing(?: like that)?|not that i|i don't|i do not|i haven't|i have not|i didn't|i did not|i'm not|i am not|(?:he|she|they) (?:doesn't|hasn't|didn't|isn't|don't|haven't)|no,|negative|denies)\b/i;
const YES =
  /^(?:yes|yeah|yep|yup|i do|i have|i did|a little|sometimes|some|occasionally|definitely|absolutely|i am|i'm|a bit|kind of|sort of|uh-huh|mm-hmm|mhm)\b/i;
// "mm-hmm" and "uh-huh" are fillers to the cleaner, but alone after a question they say yes.
const BARE_YES = /^\W*(?:mm-?hmm|uh-?huh|mhm)\b/i;
// The suicide screen, however it is asked, is written the way notes write it.
const SELF_HARM = /\b(?:(?:hurt|harm|kill)\w* (?:themselves|yourself|himself|herself)|end\w* (?:the|your|his|her) life|suicid\w*)\b/i;

function topicOf(question: string): string | undefined {
  const q = stripLeading(question)
    .replace(/[?.]+\s*$/, '')
    .trim();
  for (const re of ASKS) {
    const m = re.exec(q);
    if (!m) continue;
    let topic = m[1].replace(TRAIL, '').replace(TRAIL, '').trim();
    topic = topic
      .replace(/\byourself\b/gi, 'themselves')
      .replace(/\byour\b/gi, 'the')
      .replace(/\byou\b/gi, '')
      .replace(/\s+/g, ' ')
      .trim();
    if (SELF_HARM.test(topic)) return 'suicidal ideation or thoughts of self-harm';
    const words = topic.toLowerCase().split(/\s+/);
    if (words.length === 0 || words.length > 8) return undefined;
    const lex = lexicon();
    const clinical = words.some((w) => {
      const s = stem(w.replace(/[^a-z-]/g, ''));
      return lex.symptom.has(s) || lex.condition.has(s);
    });
    return clinical ? topic : undefined;
  }
  return undefined;
}

export function pairFindings(turns: Turn[]): Finding[] {
  const out: Finding[] = [];
  for (let i = 0; i + 1 < turns.length; i++) {
    const q = turns[i];
    const a = turns[i + 1];
    if (q.speaker !== 'doctor' || (a.speaker !== 'patient' && a.speaker !== 'other')) continue;
    const qText = normalizeAsr(q.text);
    const last =
      qText
        .split(/(?<=[.!?])\s+/)
        .filter((s) => s.trim())
        .pop() ?? '';
    if (!interrogative(last)) continue;
    const topic = topicOf(last);
    if (!topic || /allerg/i.test(topic)) continue; // allergies have their own line (allergies.ts)
    const answer = stripLeading(normalizeAsr(a.text)).toLowerCase();
    const raw = normalizeAsr(a.text).toLowerCase();
    const lines = [...q.lines.map((l) => l.line), ...a.lines.map((l) => l.line)];
    if (NO.test(raw) || NO.test(answer)) out.push({ turn: i + 1, topic, present: false, lines });
    else if (BARE_YES.test(a.text) && !/\b(?:no|not|never|none)\b/.test(answer)) out.push({ turn: i + 1, topic, present: true, lines });
    // "a little short of breath, no chest pain" answers two questions at once: the sentence itself is kept instead.
    else if ((YES.test(raw) || YES.test(answer)) && !/\b(?:no|not|never|none)\b/.test(answer))
      out.push({ turn: i + 1, topic, present: true, lines });
  }
  return out;
}
