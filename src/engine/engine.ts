import type { NoteContent, Template } from './templates.js';

export type ChatRole = 'user' | 'assistant' | 'system';
export interface ChatMessage {
  role: ChatRole;
  content: string;
}

export interface EngineCallOptions {
  /** Aborted when the run is cancelled or times out. */
  signal?: AbortSignal;
  /** The group whose work this is: the local engine serves waiting groups in turn (DESIGN "Fair share between groups"). */
  group?: string;
}

/** The visit a chat is about: the transcript of the thread's extraction or of its `transcription_id`. */
export interface VisitContext {
  transcript: string;
}

export interface ChatOptions extends EngineCallOptions {
  visit?: VisitContext;
}

/** One sentence of a note section and the 1-based transcript lines it was drawn from. */
export interface EvidenceSentence {
  text: string;
  lines: number[];
}

/** Evidence of an extracted note, keyed by the template's section names (DESIGN.md, Clinical notes). */
export type NoteEvidence = Record<string, EvidenceSentence[]>;

export interface TokenUsage {
  prompt_tokens: number;
  completion_tokens: number;
}

export interface ChatResult {
  message: ChatMessage; // role 'assistant'
  usage?: TokenUsage;
}

export interface ExtractionResult {
  template: Template;
  content: NoteContent;
  /** Where each sentence came from; the local engine always gives it. */
  evidence?: NoteEvidence;
  usage?: TokenUsage;
}

export type CodifyModel = 'fast' | 'balanced' | 'high-quality';

/** Where the note supports a code: offsets in UTF-16 code units, `text` the exact span. */
export interface CodeEvidence {
  start: number;
  end: number;
  text: string;
  /** `note`: offsets into medical_note; `pdf`: offsets into the PDF's text */
  source: 'note' | 'pdf';
}

export interface CodeAssessment {
  code: string; // dotted ICD-10-CM, e.g. E11.9
  description: string; // official title
  justification: string;
  confidence_percent: number; // 0-100
  evidence?: CodeEvidence[];
  /** how the note asserts the condition (DESIGN.md, ICD-10-CM data): a discard names the trait that caused it */
  traits?: CodeTrait[];
}

export const TRAIT_NAMES = ['negated', 'uncertain', 'historical', 'family', 'hypothetical', 'resolved'] as const;

/** A trait of a code assessment, with the words of the note that carry it. */
export interface CodeTrait {
  name: (typeof TRAIT_NAMES)[number];
  text: string;
}

export interface CodifyInput {
  text: string; // the medical note, with any PDF text appended
  model: CodifyModel;
  /** length (UTF-16) of medical_note within `text`; the PDF's text starts after it and a blank line */
  noteLength?: number;
}

export interface CodifyResult {
  final_code_assessments: CodeAssessment[];
  discarded_code_assessments: CodeAssessment[];
  usage?: TokenUsage;
}

/** The clinical engine: `local` (embedded, deterministic, no network) or `openai`. */
export interface ClinicalEngine {
  readonly name: string;
  chat(messages: ChatMessage[], options?: ChatOptions): Promise<ChatResult>;
  extractNote(transcript: string, template: Template, options?: EngineCallOptions): Promise<ExtractionResult>;
  codify(input: CodifyInput, options?: EngineCallOptions): Promise<CodifyResult>;
  /** Releases what the engine holds (threads); called once at shutdown. */
  close?(): Promise<void>;
}
