import type { NoteContent, Template } from '../../templates.js';
import { allergyAnswers } from './allergies.js';
import { assembleSoap, type SoapEvidence, type SoapNote } from './assemble.js';
import { classify } from './classify.js';
import { applyModel, DEFAULT_MODEL, type SentenceModel } from './learned.js';
import { pairFindings } from './qa.js';
import { detectGender, pronouns } from './third-person.js';
import { toTemplate, type TemplateEvidence } from './template-map.js';
import { parseTranscript } from './transcript.js';
import { toUnits } from './units.js';

/**
 * Local clinical note extraction: deterministic, no network, every sentence traceable to
 * the transcript. Pipeline: parse turns -> clean and split sentences -> track the visit's
 * phase -> classify and score sentences -> pick to a length budget -> third person -> template.
 */
export interface ExtractOptions {
  /** The sentence model; the committed weights unless a caller (cross-validation) passes its own. */
  model?: SentenceModel;
}

export function extractSoap(transcript: string, opts: ExtractOptions = {}): SoapNote {
  return extractSoapWithEvidence(transcript, opts).note;
}

export function extractSoapWithEvidence(transcript: string, opts: ExtractOptions = {}): { note: SoapNote; evidence: SoapEvidence } {
  const turns = parseTranscript(transcript ?? '');
  const units = toUnits(turns);
  const cands = applyModel(units, classify(units), opts.model ?? DEFAULT_MODEL);
  const findings = pairFindings(turns);
  const doctorText = turns
    .filter((t) => t.speaker !== 'patient')
    .map((t) => t.text)
    .join(' ');
  const totalWords = units.reduce((n, u) => n + u.words.length, 0);
  // Reference notes run about a third of a long visit; a short visit (up to 400 words) keeps all it has.
  const budgetWords = totalWords <= 400 ? totalWords : Math.round(Math.min(650, Math.max(totalWords * 0.35, 250)));
  return assembleSoap(cands, findings, {
    budgetWords,
    pronouns: pronouns(detectGender(doctorText)),
    allergies: allergyAnswers(turns),
    turns,
    units,
  });
}

/** The note in `template` and, per section, each sentence with the transcript lines it came from. */
export function extractNoteWithEvidence(
  transcript: string,
  template: Template,
  opts: ExtractOptions = {},
): { content: NoteContent; evidence: TemplateEvidence } {
  const { note, evidence } = extractSoapWithEvidence(transcript, opts);
  return toTemplate(note, evidence, template);
}

export function extractNote(transcript: string, template: Template, opts: ExtractOptions = {}): NoteContent {
  return extractNoteWithEvidence(transcript, template, opts).content;
}

export { parseTranscript } from './transcript.js';
export { allergyAnswers } from './allergies.js';
export type { SoapNote, SoapEvidence } from './assemble.js';
export type { Evidenced } from './evidenced.js';
export type { TemplateEvidence } from './template-map.js';
export { toUnits, type Unit } from './units.js';
export { classify, type Candidate } from './classify.js';
export { rewrite, pronouns, detectGender, notation, type Pronouns } from './third-person.js';
export { finish } from './clean.js';
export { PLACEHOLDERS } from './assemble.js';
export { stem } from './nlp.js';
export type { Turn, Speaker } from './transcript.js';
