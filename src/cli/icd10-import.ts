import { Command } from 'commander';
import cliProgress from 'cli-progress';
import pg from 'pg';
import { parseConfig } from '../config.js';
import { startEmbeddedPostgres, type EmbeddedDatabase } from '../db/embedded.js';
import { migrate } from '../db/migrate.js';
import { createPool } from '../db/pool.js';
import { importIcd10 } from '../terminology/icd10-import.js';

/**
 * `npm run icd10:import -- FILE [--categories FILE]`: loads the CMS code-descriptions file into
 * the service's database (DATABASE_URL, else the embedded one: the running server's, or started
 * here when the server is down). Running servers pick the new table up within a minute.
 */
async function databaseUrl(): Promise<{ url: string; embedded?: EmbeddedDatabase }> {
  const config = parseConfig();
  if (config.DATABASE_URL) return { url: config.DATABASE_URL };
  const url = `postgres://postgres:postgres@127.0.0.1:${config.EMBEDDED_PG_PORT}/clinigate`;
  const probe = new pg.Client({ connectionString: url, connectionTimeoutMillis: 2_000 });
  try {
    await probe.connect();
    await probe.end();
    return { url };
  } catch {
    const embedded = await startEmbeddedPostgres(config.DATA_DIR, config.EMBEDDED_PG_PORT);
    return { url: embedded.connectionString, embedded };
  }
}

async function run(file: string, opts: { categories?: string }): Promise<void> {
  const { url, embedded } = await databaseUrl();
  const pool = createPool(url, 2);
  const bar = process.stdout.isTTY
    ? new cliProgress.SingleBar({ format: 'ICD-10-CM import [{bar}] {percentage}% | {value}/{total} rows' }, cliProgress.Presets.shades_classic)
    : undefined;
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
    await pool.end();
    await embedded?.stop();
  }
}

const program = new Command()
  .name('icd10:import')
  .description('Import the CMS ICD-10-CM code-descriptions file (icd10cm-codes-YYYY.txt)')
  .argument('<file>', 'icd10cm-codes-YYYY.txt from the "Code Descriptions in Tabular Order" zip')
  .option('--categories <file>', '3-character categories CSV, stored as non-billable header rows')
  .action(run);

program.parseAsync(process.argv).catch((err: Error) => {
  process.stderr.write(`Import failed: ${err.message}\n`);
  process.exit(1);
});
