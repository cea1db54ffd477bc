import { normalizeAsr, stripLeading } from './clean.js';
import { featuresOf, type Features } from './features.js';
import { splitSentences } from './nlp.js';
import { assessCue, diagnosisCue, findingCue, planCue } from './cues/index.js';
import { PHASE_ORDER, phaseCue, type Phase } from './phases.js';
import { clinicalStatement, cutUtterance, interrogative, splitClauses } from './speech.js';
import type { Speaker, Turn } from './transcript.js';

/** One cleaned sentence of the visit with who said it, when, and its features. */
export interface Unit {
  index: number;
  turn: number;
  speaker: Speaker;
  text: string;
  words: string[];
  pos: string[];
  negated: boolean;
  question: boolean;
  phase: Phase;
  label?: string; // explicit heading in prose ("Plan:", "BP:")
  features: Features;
  lines: number[]; // 1-based transcript lines the sentence was read from
}

const wordsOf = (s: string) =>
  new Set(
    s
      .toLowerCase()
      .split(/[^a-z0-9]+/)
      .filter((w) => w.length > 2),
  );

/** The lines of a turn that hold a sentence: all of a one-line turn, else those sharing its words. */
function linesOf(turn: Turn, words: string[]): number[] {
  if (turn.lines.length === 1) return [turn.lines[0].line];
  const want = words.filter((w) => w.length > 2);
  const scored = turn.lines.map((l) => {
    const have = wordsOf(l.text);
    return { line: l.line, hits: want.filter((w) => have.has(w)).length };
  });
  const best = Math.max(...scored.map((x) => x.hits));
  const hit = scored.filter((x) => x.hits > 0 && x.hits >= best / 3).map((x) => x.line);
  return hit.length ? hit : [turn.lines[0].line];
}

const LABEL =
  /^\s*(chief complaint|cc|hpi|history of present illness|history|subjective|objective|vitals?|vital signs|exam|examination|physical exam(?:ination)?|pe|results?|labs?|imaging|assessment|impression|diagnosis|diagnoses|a\/p|assessment and plan|plan|medications?|meds|current medications|allergies|ros|review of systems|instructions|follow[- ]?up)\s*:\s*/i;

const MARKER = /\s+(?=(?:so|now|okay|alright|all right|and then|well|but|also|because|anyway|next)\s)/gi;

/** Breaks a long unpunctuated run of speech at spoken discourse markers ("so", "now", "okay"). */
function segment(text: string): string {
  if (text.split(/\s+/).length <= 35) return text;
  const pieces = text.split(MARKER);
  const out: string[] = [];
  for (const piece of pieces) {
    const last = out[out.length - 1];
    if (last !== undefined && (last.split(/\s+/).length < 6 || piece.split(/\s+/).length < 4)) out[out.length - 1] = `${last} ${piece}`;
    else out.push(piece);
  }
  return out.map((p) => p.trim().replace(/[,;]$/, '')).join('. ');
}

export function toUnits(turns: Turn[]): Unit[] {
  const units: Unit[] = [];
  let phase: Phase = 'history';
  turns.forEach((turn, t) => {
    // Each sentence is cut where a second utterance begins before the NLP reads the turn once.
    const cleaned = normalizeAsr(turn.text)
      .split(/(?<=[.?!])\s+/)
      .map(cutUtterance)
      .join(' ');
    if (!cleaned) return;
    const clinician = turn.speaker === 'doctor' || turn.speaker === 'unknown';
    const isDx = (t: string) => diagnosisCue(t) || assessCue(t);
    const sentences = splitSentences(cleaned)
      .flatMap((s) => (s.words.length > 35 ? splitSentences(segment(s.text)) : [s]))
      .flatMap((s) => {
        if (!clinician) return [s];
        const parts = splitClauses(s.text, isDx, findingCue, planCue);
        return parts.length > 1 ? parts.flatMap((p) => splitSentences(p)) : [s];
      });
    for (const said of sentences) {
      let s = said;
      let text = stripLeading(s.text);
      let label: string | undefined;
      const m = LABEL.exec(text);
      if (m) {
        label = m[1].toLowerCase();
        text = text.slice(m[0].length).trim();
      }
      if (!text || !/[a-z0-9]/i.test(text)) continue;
      const question = interrogative(text);
      if (turn.speaker === 'doctor' || turn.speaker === 'unknown') {
        const cue = phaseCue(text, question);
        if (cue && PHASE_ORDER[cue] >= PHASE_ORDER[phase]) phase = cue;
        else if (cue === 'exam' && phase === 'results') phase = cue;
        // Once the examination has begun, an impression or an order means the plan has started.
        else if (!question && phase !== 'history' && (planCue(text) || assessCue(text))) phase = 'plan';
      }
      // The phase has read the whole sentence; the note keeps only the clinical statement it carries.
      if (!question) {
        const kept = clinicalStatement(text);
        // What is left once the greeting goes may be a question ("hi there so who do we have here").
        if (!kept || interrogative(kept)) continue;
        if (kept !== text) {
          text = kept;
          s = splitSentences(kept)[0] ?? s;
        }
      }
      units.push({
        index: units.length,
        turn: t,
        speaker: turn.speaker,
        text,
        words: s.words,
        pos: s.pos,
        negated: s.negated,
        question,
        phase,
        label,
        features: featuresOf(text, s.words, s.pos),
        lines: linesOf(turn, s.words),
      });
    }
  });
  return units;
}
