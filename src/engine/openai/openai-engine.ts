import type OpenAI from 'openai';
import type { Logger } from '../../lib/logger.js';
import type { CodeTable } from '../../terminology/code-table.js';
import type {
  ChatMessage,
  ChatOptions,
  ChatResult,
  ClinicalEngine,
  CodifyInput,
  CodifyResult,
  EngineCallOptions,
  ExtractionResult,
} from '../engine.js';
import type { Template } from '../templates.js';
import type { EngineContext } from './call.js';
import { answerChat } from './chat.js';
import { createClient, defaultModel, type OpenAIConfig } from './client.js';
import { codify } from './codification.js';
import { extractNote } from './extraction.js';
import { PROMPT_VERSIONS } from './prompts/index.js';

const numbered = (t: string) =>
  t
    .split('\n')
    .map((l, i) => `${i + 1}: ${l}`)
    .join('\n');

export interface OpenAIEngineDeps {
  /** The ICD-10-CM table in force (reloaded after an import). */
  codeTable: () => CodeTable;
  logger?: Logger;
  /** A ready client, for tests; otherwise built from the configuration. */
  client?: OpenAI;
}

/**
 * The engine on any OpenAI-compatible chat-completions endpoint: hosted, or run by the
 * hospital (vLLM, Ollama, LM Studio) so PHI stays inside. Unreachable or failing endpoints
 * throw EngineUnavailableError; answers that do not fit throw EngineAnswerError.
 */
export class OpenAIEngine implements ClinicalEngine {
  readonly name = 'openai';
  private readonly ctx: EngineContext;

  constructor(
    config: OpenAIConfig,
    private readonly deps: OpenAIEngineDeps,
  ) {
    const model = defaultModel(config); // fail at start, not at the first call
    this.ctx = { client: deps.client ?? createClient(config), config, logger: deps.logger };
    deps.logger?.info('openai engine ready', {
      model,
      timeout_ms: config.OPENAI_TIMEOUT_MS,
      max_retries: config.OPENAI_MAX_RETRIES,
      prompts: PROMPT_VERSIONS,
    });
  }

  chat(messages: ChatMessage[], options?: ChatOptions): Promise<ChatResult> {
    // The visit travels as a system message ahead of the thread, so the model answers from it.
    const visit: ChatMessage[] = options?.visit
      ? [{ role: 'system', content: `Visit transcript (numbered lines):\n${numbered(options.visit.transcript)}` }]
      : [];
    return answerChat(this.ctx, [...visit, ...messages], options?.signal);
  }

  extractNote(transcript: string, template: Template, options?: EngineCallOptions): Promise<ExtractionResult> {
    return extractNote(this.ctx, transcript, template, options?.signal);
  }

  codify(input: CodifyInput, options?: EngineCallOptions): Promise<CodifyResult> {
    return codify(this.ctx, this.deps.codeTable(), input, options?.signal);
  }
}
