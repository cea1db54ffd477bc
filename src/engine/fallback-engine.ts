import type { Logger } from '../lib/logger.js';
import type {
  ChatMessage,
  ChatOptions,
  ChatResult,
  ClinicalEngine,
  CodifyInput,
  CodifyResult,
  EngineCallOptions,
  ExtractionResult,
} from './engine.js';
import { isEngineUnavailable } from './engine-errors.js';
import type { Template } from './templates.js';

/**
 * ENGINE_FALLBACK=local: when the primary engine is unavailable (EngineUnavailableError), the
 * fallback answers instead. Other failures, and cancellations, pass through unchanged.
 */
export class FallbackEngine implements ClinicalEngine {
  readonly name: string;

  constructor(
    private readonly primary: ClinicalEngine,
    private readonly fallback: ClinicalEngine,
    private readonly logger?: Logger,
  ) {
    this.name = primary.name;
  }

  private async attempt<T>(operation: string, signal: AbortSignal | undefined, run: (e: ClinicalEngine) => Promise<T>): Promise<T> {
    try {
      return await run(this.primary);
    } catch (err) {
      if (!isEngineUnavailable(err) || signal?.aborted) throw err;
      // The reason names the failure (status, time-out), never request or answer content.
      this.logger?.warn('engine fallback', { engine: this.primary.name, fallback: this.fallback.name, operation, reason: err.message });
      return run(this.fallback);
    }
  }

  chat(messages: ChatMessage[], options?: ChatOptions): Promise<ChatResult> {
    return this.attempt('chat', options?.signal, (e) => e.chat(messages, options));
  }

  extractNote(transcript: string, template: Template, options?: EngineCallOptions): Promise<ExtractionResult> {
    return this.attempt('extraction', options?.signal, (e) => e.extractNote(transcript, template, options));
  }

  codify(input: CodifyInput, options?: EngineCallOptions): Promise<CodifyResult> {
    return this.attempt('codify', options?.signal, (e) => e.codify(input, options));
  }

  async close(): Promise<void> {
    await Promise.all([this.primary.close?.(), this.fallback.close?.()]);
  }
}
