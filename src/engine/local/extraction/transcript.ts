/** Parses a transcript into speaker turns: ACI-Bench style `[doctor] ...` lines or plain prose. */
export type Speaker = 'doctor' | 'patient' | 'other' | 'unknown';

export interface Turn {
  speaker: Speaker;
  text: string;
  /** 1-based transcript lines the turn was read from, with each line's cleaned text. */
  lines: { line: number; text: string }[];
}

/**
 * Every pattern here sees user text, so each is linear: a line is capped and its whitespace
 * collapsed before matching, and no pattern nests or chains unbounded quantifiers (the old
 * `^\s*\[\s*([a-z_ -]+?)\s*\]` backtracked cubically on "[" + 2,500 spaces).
 */
export const MAX_LINE_CHARS = 4_000;
const TAG = /^\[([^\]]{1,40})\] ?:? ?/;
const TAG_NAME = /^[a-z_ -]+$/i;
const PREFIX = /^(dr|doctor|physician|provider|clinician|nurse|patient|pt|mother|father|parent|guest|spouse)\.? ?: ?/i;
const INAUDIBLE = /\[ ?(?:inaudible|crosstalk|unintelligible|silence|laughs?|pause)[^\]]{0,60}\]/gi;
const LONG_TOKEN = /\S{61,}/g; // no word is this long; such runs are noise (and slow later patterns)

function speakerOf(tag: string): Speaker {
  const t = tag.trim().toLowerCase();
  if (/^(doctor|dr|physician|provider|clinician|nurse)/.test(t)) return 'doctor';
  if (/^(patient|pt)$/.test(t)) return 'patient';
  return 'other';
}

/** A raw line made safe for the later patterns: capped, long runs dropped, whitespace collapsed. */
export function safeLine(raw: string): string {
  return raw.slice(0, MAX_LINE_CHARS).replace(LONG_TOKEN, ' ').replace(/\s+/g, ' ').trim();
}

/** A line longer than the cap (prose pasted as one line) is read as several pieces, cut at spaces. */
function pieces(raw: string): string[] {
  const out: string[] = [];
  let rest = raw;
  while (rest.length > MAX_LINE_CHARS) {
    const cut = rest.lastIndexOf(' ', MAX_LINE_CHARS);
    const at = cut > MAX_LINE_CHARS / 2 ? cut : MAX_LINE_CHARS;
    out.push(rest.slice(0, at));
    rest = rest.slice(at);
  }
  out.push(rest);
  return out;
}

export function parseTranscript(transcript: string): Turn[] {
  const turns: Turn[] = [];
  let tagged = false;
  const rawLines = (typeof transcript === 'string' ? transcript : '').split('\n');
  rawLines.forEach((whole, i) =>
    pieces(whole).forEach((rawLine) => {
      const line = safeLine(rawLine).replace(INAUDIBLE, ' ').trim();
      if (!line) return;
      const tag = TAG.exec(line);
      const m = tag && TAG_NAME.test(tag[1].trim()) ? { len: tag[0].length, name: tag[1].trim() } : undefined;
      const p = m ? undefined : PREFIX.exec(line);
      const head = m ?? (p ? { len: p[0].length, name: p[1] } : undefined);
      if (head) {
        tagged = true;
        const text = line.slice(head.len).trim();
        if (text) turns.push({ speaker: speakerOf(head.name), text, lines: [{ line: i + 1, text }] });
        return;
      }
      // An untagged line in a tagged transcript continues the previous speaker's turn.
      const prev = turns[turns.length - 1];
      if (tagged && prev) {
        prev.text += ' ' + line;
        prev.lines.push({ line: i + 1, text: line });
      } else turns.push({ speaker: 'unknown', text: line, lines: [{ line: i + 1, text: line }] });
    }),
  );
  return turns;
}
