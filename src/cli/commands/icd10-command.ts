import cliProgress from 'cli-progress';
import type { Command } from 'commander';
import { migrate } from '../../db/migrate.js';
import { withDatabase } from '../database.js';
import { cliConfig } from '../cli-errors.js';

export interface Icd10ImportOptions {
  categories?: string;
}

/**
 * Loads the CMS code-descriptions file into the service's database (DATABASE_URL, else the
 * embedded one: the running server's, or started here). Running servers pick the new table up
 * within a minute. Used by `clinigate icd10 import` and `npm run icd10:import`.
 */
export async function runIcd10Import(file: string, opts: Icd10ImportOptions): Promise<void> {
  const bar = process.stdout.isTTY
    ? new cliProgress.SingleBar(
        { format: 'ICD-10-CM import [{bar}] {percentage}% | {value}/{total} rows' },
        cliProgress.Presets.shades_classic,
      )
    : undefined;
  const { importIcd10 } = await import('../../terminology/icd10-import.js');
  await withDatabase(cliConfig(), async ({ pool }) => {
    try {
      await migrate(pool);
      let started = false;
      const result = await importIcd10(pool, {
        codesFile: file,
        categoriesFile: opts.categories,
        onProgress: (done, total) => {
          if (!bar) return;
          if (!started) bar.start(total, 0);
          started = true;
          bar.update(done);
        },
      });
      bar?.stop();
      const seconds = (result.durationMs / 1000).toFixed(1);
      process.stdout.write(
        result.status === 'unchanged'
          ? `Unchanged: this content is already imported (${result.codeCount} codes, ${result.headerCount} headers).\n`
          : `Imported ${result.codeCount} codes and ${result.headerCount} header rows in ${seconds} s (sha256 ${result.codesSha256.slice(0, 12)}).\n`,
      );
    } finally {
      bar?.stop();
    }
  });
}

/** The import's argument, option and action, on `clinigate icd10 import` and on the npm script's own command. */
export function defineIcd10Import(command: Command): Command {
  return command
    .description('import the CMS ICD-10-CM code-descriptions file (icd10cm-codes-YYYY.txt); the same content twice is a no-op')
    .argument('<file>', 'icd10cm-codes-YYYY.txt from the "Code Descriptions in Tabular Order" zip')
    .option('--categories <file>', '3-character categories CSV, stored as non-billable header rows')
    .action(runIcd10Import);
}

export function registerIcd10(program: Command): void {
  const icd10 = program.command('icd10').description('ICD-10-CM code table: icd10 import <file> [--categories <file>]');
  defineIcd10Import(icd10.command('import'));
}
