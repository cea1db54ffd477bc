#!/usr/bin/env node
import { Command, CommanderError } from 'commander';
import { registerData } from './commands/data-command.js';
import { registerIcd10 } from './commands/icd10-command.js';
import { registerMigrate } from './commands/migrate-command.js';
import { registerSecrets } from './commands/secrets-command.js';
import { registerServe } from './commands/serve-command.js';
import { registerToken } from './commands/token-command.js';
import { registerWebhooks } from './commands/webhooks-command.js';
import { CliError } from './cli-errors.js';

/**
 * `clinigate`: the service and its chores (migrations, development tokens, the ICD-10-CM import,
 * dead webhook replays, the data this checkout keeps). Configuration comes from the same environment variables as the service.
 */
const program = new Command()
  .name('clinigate')
  .description('Clinigate integration gateway: run the service and its maintenance tasks')
  // Before the subcommands, which inherit it: usage errors end in the catch below (exit 2).
  .exitOverride()
  .showSuggestionAfterError(true)
  .addHelpText(
    'after',
    '\nExit codes: 0 done, 1 the operation failed (e.g. database unreachable), 2 usage error.\nRun "clinigate <command> --help" for a command\'s options.',
  );

registerServe(program);
registerMigrate(program);
registerToken(program);
registerIcd10(program);
registerWebhooks(program);
registerSecrets(program);
registerData(program);

program.parseAsync(process.argv).catch((err: unknown) => {
  // Commander has already printed its one-line message (or the help).
  if (err instanceof CommanderError) process.exit(err.exitCode === 0 ? 0 : 2);
  const message = err instanceof Error ? err.message || (err as { code?: string }).code || err.name : String(err);
  process.stderr.write(`error: ${message}\n`);
  process.exit(err instanceof CliError ? err.exitCode : 1);
});
