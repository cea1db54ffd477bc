import type { TokenUsage } from '../engine.js';

/**
 * The endpoint answered, but not with something usable (JSON that does not fit the schema, an
 * empty reply). Not EngineUnavailableError: asking again later would not help, so no fallback.
 * The message carries no PHI; `usage` still counts the tokens spent.
 */
export class EngineAnswerError extends Error {
  override readonly name = 'EngineAnswerError';

  constructor(
    message: string,
    readonly usage?: TokenUsage,
  ) {
    super(message);
  }
}
