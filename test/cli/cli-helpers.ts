import { execFile } from 'node:child_process';
import { inject } from 'vitest';
import { createDatabase } from '../../src/db/create-database.js';
import { cleanEnv, REPO_ROOT } from '../helpers/process.js';

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs `clinigate ARGS` from the sources (node --import tsx src/cli/main.ts) in a clean environment. */
export function runCli(args: string[], env: Record<string, string> = {}, entry = 'src/cli/main.ts'): Promise<CliResult> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ['--import', 'tsx', entry, ...args],
      { cwd: REPO_ROOT, env: cleanEnv({ NODE_ENV: 'test', LOG_LEVEL: 'error', ...env }), timeout: 60_000 },
      (err, stdout, stderr) => {
        const code = err ? (typeof (err as { code?: unknown }).code === 'number' ? (err as { code: number }).code : -1) : 0;
        resolve({ code, stdout: String(stdout), stderr: String(stderr) });
      },
    );
  });
}

/** An empty database of its own (no migrations) on the test server; drop() removes it. */
export const emptyDatabase = () => createDatabase(inject('adminDatabaseUrl'), 'clinigate_cli');
