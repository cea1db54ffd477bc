import type { NoteContent, Template } from './templates.js';

export type ChatRole = 'user' | 'assistant' | 'system';
export interface ChatMessage {
  role: ChatRole;
  content: string;
}

export interface EngineCallOptions {
  /** Aborted when the run is cancelled or times out. */
  signal?: AbortSignal;
}

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
  chat(messages: ChatMessage[], options?: EngineCallOptions): Promise<ChatResult>;
  extractNote(transcript: string, template: Template, options?: EngineCallOptions): Promise<ExtractionResult>;
  codify(input: CodifyInput, options?: EngineCallOptions): Promise<CodifyResult>;
}
