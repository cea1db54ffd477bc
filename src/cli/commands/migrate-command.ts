import type { Command } from 'commander';
import { migrate } from '../../db/migrate.js';
import { describeUrl, withDatabase } from '../database.js';
import { cliConfig } from '../cli-errors.js';

/** `clinigate migrate`: the migrations the service applies at start, without starting it. */
export function registerMigrate(program: Command): void {
  program
    .command('migrate')
    .description('apply pending database migrations (DATABASE_URL, else the embedded database under DATA_DIR) and list them')
    .action(async () => {
      await withDatabase(cliConfig(), async ({ pool, url }) => {
        const applied = await migrate(pool);
        const where = describeUrl(url);
        process.stdout.write(
          applied.length
            ? `Applied ${applied.length} migration${applied.length === 1 ? '' : 's'} to ${where}:\n${applied.map((m) => `  ${m}\n`).join('')}`
            : `Nothing to apply: ${where} is up to date.\n`,
        );
      });
    });
}
