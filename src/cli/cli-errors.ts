import { ConfigError, parseConfig, type Config } from '../config.js';

/** A failure the CLI reports in one line, with its exit code (1: the operation failed, 2: usage). */
export class CliError extends Error {
  constructor(
    message: string,
    readonly exitCode = 1,
  ) {
    super(message);
  }
}

/** The service's configuration, as the server reads it; a bad variable is a one-line CliError. */
export function cliConfig(env: NodeJS.ProcessEnv = process.env): Config {
  try {
    return parseConfig(env);
  } catch (err) {
    if (err instanceof ConfigError) throw new CliError(err.message);
    throw err;
  }
}
