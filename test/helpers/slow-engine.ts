import type { ChatMessage, ClinicalEngine, CodifyInput, EngineCallOptions } from '../../src/engine/engine.js';
import type { Template } from '../../src/engine/templates.js';

/**
 * Test code only: wraps a real engine and waits `delayMs` before each chat or extraction, giving
 * up when the call's signal aborts (as a network engine would). Counts what it saw.
 */
export class SlowEngine implements ClinicalEngine {
  readonly name = 'slow';
  started = 0;
  aborted = 0;
  finished = 0;
  onStart?: () => void;

  constructor(
    private readonly inner: ClinicalEngine,
    public delayMs: number,
  ) {}

  private async wait(signal?: AbortSignal): Promise<void> {
    this.started++;
    this.onStart?.();
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(resolve, this.delayMs);
      signal?.addEventListener(
        'abort',
        () => {
          clearTimeout(timer);
          this.aborted++;
          reject(new Error('aborted'));
        },
        { once: true },
      );
    });
    this.finished++;
  }

  async chat(messages: ChatMessage[], options?: EngineCallOptions) {
    await this.wait(options?.signal);
    return this.inner.chat(messages, options);
  }

  async extractNote(transcript: string, template: Template, options?: EngineCallOptions) {
    await this.wait(options?.signal);
    return this.inner.extractNote(transcript, template, options);
  }

  codify(input: CodifyInput, options?: EngineCallOptions) {
    return this.inner.codify(input, options);
  }
}
