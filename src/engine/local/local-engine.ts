import type { CodeTable } from '../../terminology/code-table.js';
import type { ChatMessage, ChatOptions, ChatResult, ClinicalEngine, CodifyInput, CodifyResult, ExtractionResult } from '../engine.js';
import type { Template } from '../templates.js';
import { answerChat } from './chat/index.js';
import { codifyText } from './coder/index.js';
import { extractNoteWithEvidence } from './extraction/index.js';

/** The embedded engine: deterministic, explainable, no network. */
export class LocalEngine implements ClinicalEngine {
  readonly name = 'local';

  /** `codeTable` returns the table in force (reloaded after an import). */
  constructor(private readonly codeTable: () => CodeTable) {}

  async chat(messages: ChatMessage[], options?: ChatOptions): Promise<ChatResult> {
    return { message: { role: 'assistant', content: answerChat(messages, options?.visit) } };
  }

  async extractNote(transcript: string, template: Template): Promise<ExtractionResult> {
    const { content, evidence } = extractNoteWithEvidence(transcript, template);
    return { template, content, evidence };
  }

  async codify(input: CodifyInput): Promise<CodifyResult> {
    return codifyText(this.codeTable(), input.text, input.model, { noteLength: input.noteLength });
  }
}
