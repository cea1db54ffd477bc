/** Parses a transcript into speaker turns: ACI-Bench style `[doctor] ...` lines or plain prose. */
export type Speaker = 'doctor' | 'patient' | 'other' | 'unknown';

export interface Turn {
  speaker: Speaker;
  text: string;
}

const TAG = /^\s*\[\s*([a-z_ -]+?)\s*\]\s*:?\s*/i;
const PREFIX = /^\s*(dr|doctor|physician|provider|clinician|nurse|patient|pt|mother|father|parent|guest|spouse)\s*\.?\s*:\s*/i;
const INAUDIBLE = /\[\s*(inaudible|crosstalk|unintelligible|silence|laughs?|pause)[^\]]*\]/gi;

function speakerOf(tag: string): Speaker {
  const t = tag.toLowerCase();
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
