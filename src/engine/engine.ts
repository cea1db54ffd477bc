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

export interface CodeAssessment {
  code: string; // dotted ICD-10-CM, e.g. E11.9
  description: string; // official title
  justification: string;
  confidence_percent: number; // 0-100
}

export interface CodifyInput {
  text: string; // the medical note, with any PDF text appended
  model: CodifyModel;
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
  /** Releases what the engine holds (worker threads); called once at shutdown. */
  close?(): Promise<void>;
}
