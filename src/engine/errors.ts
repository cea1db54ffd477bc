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
