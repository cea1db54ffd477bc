/**
 * A reason the service cannot start that the operator can fix: its message is the one line
 * printed before exiting (no stack), e.g. a port or a data folder already in use.
 */
export class StartupError extends Error {
  override name = 'StartupError';
}
