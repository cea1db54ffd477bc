import { ALLERGY, assessCue, diagnosisCue, examCue, NAMED_TEST, PLAN_ACTION, planCue, resultCue } from './cues/index.js';
import { clinicalWeight } from './features.js';
import { ACKNOWLEDGEMENT } from './lexicon.js';
import type { Speaker } from './transcript.js';
import type { Unit } from './units.js';

/** Note sections a sentence can land in. */
export type Section = 'hpi' | 'meds' | 'allergies' | 'vitals' | 'exam' | 'results' | 'assessment' | 'plan';

export interface Candidate {
  unit: Unit;
  section: Section;
  score: number;
  speaker: Speaker; // who the sentence speaks as, for the third-person rewrite
  intro: boolean; // the clinician's summary of who the patient is and why they came
  used?: number; // the sentence model's probability that a note uses the sentence (learned.ts)
  drug?: { name: string; lines: number[] }; // the drug a dose-only answer is about (assemble.ts)
}

const COMMAND =
  /^(?:show me|open|pull up|go to(?! the (?:er|emergency|hospital|urgent care))|bring up|let's pull up|finali[sz]e (?:the|this) (?:note|recording)|end (?:the )?recording)\b/i; // voice-assistant commands
const GREETING =
  /^(?:hi|hello|hey|(?:good )?(?:morning|afternoon|evening)(?=[,.!]|$| [a-z]+\.?$| (?:mr|mrs|ms|dr)\b)|nice to meet you|tell me (?:about|more)|walk me through|describe (?:the|your|it)|(?:so )?(?:here's|here is|this is) (?:the|my|our) plan\.?$)(?![a-z'])/i; // also prompts and headings said aloud; whole words only ("his", "hip", "hives" are no greeting)
// Announcements of what comes next ("let's do a quick physical exam") carry no finding.
const ANNOUNCE =
  /^(?:let's|we will|we'll|i will|i'll|i'm going to|i want to|i just want to|i'd like to|let me)\s+(?:just\s+|also\s+)?(?:go ahead and\s+)?(?:do|perform|start|take|have)\s+(?:a |an |your )?(?:quick |brief )?(?:physical )?(?:exam(?:ination)?|look)\b[^,]*$|^(?:let me|let's|i'm going to|i want to|i'd like to|now i'm going to)\s+(?:just\s+)?(?:go over|talk about|discuss|review)\b[^.]{0,60}\b(?:assessment|plan|results|findings)\b[^,]*$/i;
const INTRO =
  /\b(\d+|[a-z]+)[- ]year[- ]old\b|\bpresents?\b.*\b(for|with)\b|\b(is|are|'re|'s) here (today )?(for|with|to)\b|\bcomes? in (today )?(for|with)\b/i;
const CLINICIAN_FIRST_PERSON =
  /\b(i|we)(?:'ll| will| would| am going to|'m going to|'d like to| want to)? (prescrib\w*|order\w*|refer\w*|recommend\w*|examin\w*|reviewed|increas\w*|start\w*|schedul\w*|advis\w*)\b/i;
const LABEL_SECTION: Record<string, Section> = {
  'chief complaint': 'hpi',
  cc: 'hpi',
  hpi: 'hpi',
  'history of present illness': 'hpi',
  history: 'hpi',
  subjective: 'hpi',
  ros: 'hpi',
  'review of systems': 'hpi',
  allergies: 'allergies',
  medications: 'meds',
  medication: 'meds',
  meds: 'meds',
  'current medications': 'meds',
  objective: 'exam',
  vitals: 'vitals',
  vital: 'vitals',
  'vital signs': 'vitals',
  exam: 'exam',
  examination: 'exam',
  'physical exam': 'exam',
  'physical examination': 'exam',
  pe: 'exam',
  results: 'results',
  result: 'results',
  labs: 'results',
  lab: 'results',
  imaging: 'results',
  assessment: 'assessment',
  impression: 'assessment',
  diagnosis: 'assessment',
  diagnoses: 'assessment',
  'a/p': 'plan',
  'assessment and plan': 'plan',
  plan: 'plan',
  instructions: 'plan',
  'follow-up': 'plan',
  'follow up': 'plan',
  followup: 'plan',
};

const CURRENT_USE =
  /\b(?:you're|you are|he's|she's|he is|she is|the patient is|they're) (?:still |currently |already )?(?:taking|on)\b|\b(?:you|he|she) (?:currently |already )?(?:takes?|uses?)\b|\bcurrently (?:taking|on)\b/i;

/** Who an untagged sentence speaks as: first person about symptoms reads as the patient. */
function voiceOf(u: Unit): Speaker {
  if (u.speaker !== 'unknown') return u.speaker;
  const firstPerson = /\b(i|my|me|i'm|i've)\b/i.test(u.text);
  return firstPerson && !CLINICIAN_FIRST_PERSON.test(u.text) && !/\byou\b/i.test(u.text) ? 'patient' : 'unknown';
}

function isVitals(u: Unit): boolean {
  const f = u.features;
  if (!f.vitals || f.dose || PLAN_ACTION.test(u.text)) return false;
  if (/\b(vital signs|vitals)\b/i.test(u.text)) return true;
  if (
    /\b(?:blood pressure|temperature|temp|heart rate|pulse|oxygen|saturation|weight|respiratory rate)\b(?: (?:today|here|in the office))? (?:is|was|of|at) (?:\w+ )?\d/i.test(
      u.text,
    )
  )
    return true;
  if (f.numbers > 0 && /\b\d{2,3}\s*(?:\/|over)\s*\d{2,3}\b|\b\d+(?:\.\d+)?\s*(?:%|percent|degrees|beats|bpm)/i.test(u.text)) return true;
  return u.phase !== 'history' && u.phase !== 'plan' && /\b(today|in the office|here|normal|elevated|looks? good)\b/i.test(u.text);
}

function sectionOf(u: Unit, voice: Speaker, weight: number, intro: boolean): Section | undefined {
  const f = u.features;
  if (u.label) return LABEL_SECTION[u.label] ?? 'hpi';
  const clinician = voice === 'doctor' || voice === 'unknown';
  if (ALLERGY.test(u.text) && !planCue(u.text)) return 'allergies';
  if (clinician) {
    const strong = strongSection(u);
    if (strong) return strong;
    // "you're on lisinopril 20 mg daily": what the patient already takes, not an order.
    if (CURRENT_USE.test(u.text) && (f.med > 0 || f.dose)) return 'meds';
  }
  if (clinician && isVitals(u)) return 'vitals';
  if (!clinician) {
    // What the patient says they take, with its dose, is a current medication whenever it is said.
    if (f.dose && !/\b(?:will|going to|should|could|can i|do i)\b/i.test(u.text)) return 'meds';
    if (u.phase === 'history' || u.speaker === 'unknown') return 'hpi';
    return weight >= 3 && f.content >= 5 ? 'hpi' : undefined;
  }
  if (intro && u.phase === 'history') return 'hpi';
  switch (u.phase) {
    case 'history':
      if (u.speaker === 'unknown') {
        if (f.result > 0 && /\b(show|reveal|demonstrat|normal|came back)/i.test(u.text)) return 'results';
        if (f.exam >= 2) return 'exam';
        if (f.assessCue) return 'assessment';
        if (f.planCue && (f.med > 0 || /\b(follow|return|refer|order|start|continue|prescrib)/i.test(u.text))) return 'plan';
      }
      return f.dose ? 'meds' : 'hpi';
    case 'exam':
      if (f.result > 0 && f.exam === 0) return 'results';
      if (f.assessCue && f.exam === 0) return 'assessment';
      return 'exam';
    case 'results':
      if (f.exam > f.result) return 'exam';
      return 'results';
    case 'plan':
      if (f.assessCue && !f.dose && !PLAN_ACTION.test(u.text)) return 'assessment';
      return 'plan';
  }
}

/** A clinician's sentence whose words place it whatever the phase (see cues.ts). */
function strongSection(u: Unit): Section | undefined {
  const t = u.text;
  if (planCue(t)) return 'plan';
  // A diagnosis the clinician names goes to the assessment wherever it is said (during the exam too).
  if (diagnosisCue(t)) return 'assessment';
  if (assessCue(t) && (u.phase !== 'history' || /^(?:so )?i think (?:this|it|that|you)/i.test(t))) return 'assessment';
  // After the exam, "so you have strep throat" is the diagnosis, said to the patient.
  if (u.phase !== 'history' && /^(?:so |and |well )?(?:you have|you've got|you do have|(?:it )?looks like you have) /i.test(t))
    return 'assessment';
  if (isVitals(u)) return 'vitals';
  if (NAMED_TEST.test(t)) return 'exam';
  // A result the clinician reads out with its figure is a result even before the exam ("your a1c came back at 8.6").
  if (resultCue(t) && (u.phase !== 'history' || (u.features.numbers > 0 && !u.question))) return 'results';
  if (examCue(t) && u.phase !== 'history') return 'exam';
  return undefined;
}

/** Sentences no note uses whatever their words: questions, commands to the assistant, greetings, announcements. */
export function conversational(u: Unit): boolean {
  return (u.question && !u.label) || ACKNOWLEDGEMENT.test(u.text) || COMMAND.test(u.text) || GREETING.test(u.text) || ANNOUNCE.test(u.text);
}

export function classify(units: Unit[]): Candidate[] {
  const out: Candidate[] = [];
  for (const u of units) {
    const f = u.features;
    if (conversational(u)) continue;
    const named = f.condition + f.med > 0 || ALLERGY.test(u.text); // "i have asthma" is short but matters
    if (f.content < (named ? 1 : 2)) continue;
    const weight = clinicalWeight(f);
    if (f.smallTalk && weight < 2) continue;
    const voice = voiceOf(u);
    const intro = (voice === 'doctor' || voice === 'unknown') && INTRO.test(u.text) && u.phase !== 'plan';
    const section = sectionOf(u, voice, weight, intro);
    if (!section) continue;
    let score = weight + 0.35 * f.content + (intro ? 6 : 0) + (u.label ? 4 : 0);
    if (weight === 0) score -= 2;
    if (f.smallTalk) score -= 2;
    out.push({ unit: u, section, score, speaker: voice, intro });
  }
  return out;
}
