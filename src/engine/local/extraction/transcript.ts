/** Parses a transcript into speaker turns: ACI-Bench style `[doctor] ...` lines or plain prose. */
export type Speaker = 'doctor' | 'patient' | 'other' | 'unknown';

export interface Turn {
  speaker: Speaker;
  text: string;
}

// Linear time on any line: no two adjacent parts can match the same characters. (The tag was
// `\[\s*([a-z_ -]+?)\s*\]`, whose three overlapping parts backtracked cubically: a line of
// "[" and 2,500 spaces took seconds.) The tag's spaces are trimmed in speakerOf().
const TAG = /^\s*\[([a-z_ -]{1,40})\]\s*:?\s*/i;
const PREFIX = /^\s*(dr|doctor|physician|provider|clinician|nurse|patient|pt|mother|father|parent|guest|spouse)\s*(?:\.\s*)?:\s*/i;
const INAUDIBLE = /\[\s*(inaudible|crosstalk|unintelligible|silence|laughs?|pause)[^\]]{0,200}\]/gi;

function speakerOf(tag: string): Speaker {
  const t = tag.trim().toLowerCase();
  if (/^(doctor|dr|physician|provider|clinician|nurse)/.test(t)) return 'doctor';
  if (/^(patient|pt)$/.test(t)) return 'patient';
  return 'other';
}

export function parseTranscript(transcript: string): Turn[] {
  const turns: Turn[] = [];
  let tagged = false;
  for (const rawLine of transcript.split(/\r?\n/)) {
    const line = rawLine.replace(INAUDIBLE, ' ').trim();
    if (!line) continue;
    const m = TAG.exec(line) ?? PREFIX.exec(line);
    if (m) {
      tagged = true;
      const text = line.slice(m[0].length).trim();
      if (text) turns.push({ speaker: speakerOf(m[1]), text });
      continue;
    }
    // An untagged line in a tagged transcript continues the previous speaker's turn.
    const prev = turns[turns.length - 1];
    if (tagged && prev) prev.text += ' ' + line;
    else turns.push({ speaker: 'unknown', text: line });
  }
  return turns;
}
