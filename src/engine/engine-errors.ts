/**
 * The engine cannot answer now (endpoint down, refused, rate-limited, no model): the caller
 * answers 503 rather than 500, and may try again later.
 */
export class EngineUnavailableError extends Error {
  override readonly name = 'EngineUnavailableError';

  constructor(message = 'The clinical engine is unavailable', options?: { cause?: unknown }) {
    super(message, options);
  }
}

export function isEngineUnavailable(err: unknown): err is EngineUnavailableError {
  return err instanceof EngineUnavailableError || (err as { name?: string } | null)?.name === 'EngineUnavailableError';
}

/**
 * The input needs more than the engine's limits allow (its time budget, or its memory): the work
 * was stopped. Trying again with the same input fails again, so callers answer 422, not 503.
 */
export class EngineLimitError extends Error {
  override readonly name = 'EngineLimitError';
}

export function isEngineLimit(err: unknown): err is EngineLimitError {
  return err instanceof EngineLimitError || (err as { name?: string } | null)?.name === 'EngineLimitError';
}
