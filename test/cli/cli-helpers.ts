import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { inject } from 'vitest';
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
        const code = err ? (typeof (err as { code?: unknown }).code === 'number' ? ((err as { code: number }).code) : -1) : 0;
        resolve({ code, stdout: String(stdout), stderr: String(stderr) });
      },
    );
  });
}

/** An empty database of its own (no migrations) on the test server; drop() removes it. */
export async function emptyDatabase(): Promise<{ url: string; drop(): Promise<void> }> {
  const adminUrl = inject('adminDatabaseUrl');
  const name = `clinigate_cli_${Date.now()}_${randomBytes(3).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const u = new URL(adminUrl);
  u.pathname = `/${name}`;
  return {
    url: u.toString(),
    drop: async () => {
      const c = new pg.Client({ connectionString: adminUrl });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`).catch(() => {});
      await c.end();
    },
  };
}
