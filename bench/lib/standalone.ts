import { realpathSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { openBenchServer } from './database.js';
import { formatTable } from './table.js';
import type { BenchContext, BenchResult } from './types.js';

/** True when the module at moduleUrl is the script node was started with (not imported by run.ts). */
export function isMain(moduleUrl: string): boolean {
  if (!process.argv[1]) return false;
  try {
    return realpathSync(process.argv[1]) === realpathSync(fileURLToPath(moduleUrl));
  } catch {
    return false;
  }
}

export const logToStderr = (line: string) => process.stderr.write(`[bench] ${line}\n`);

/** Runs one benchmark module on its own (own server: DATABASE_URL or embedded) and prints its table. */
export async function runStandalone(run: (ctx: BenchContext) => Promise<BenchResult[]>): Promise<void> {
  const server = await openBenchServer(logToStderr);
  try {
    const results = await run({ adminUrl: server.adminUrl, log: logToStderr });
    process.stdout.write(formatTable(results) + '\n');
  } catch (err) {
    process.stderr.write(`bench failed: ${(err as Error).stack ?? String(err)}\n`);
    process.exitCode = 1;
  } finally {
    await server.stop();
  }
}
