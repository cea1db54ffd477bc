import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MIGRATIONS_DIR } from '../../src/db/migrate.js';
import { emptyDatabase, runCli } from './cli-helpers.js';

// The CMS flat-file layout: the undotted code padded to 8 columns, then the official title.
const CODES = [
  ['I10', 'Essential (primary) hypertension'],
  ['E119', 'Type 2 diabetes mellitus without complications'],
  ['J029', 'Acute pharyngitis, unspecified'],
  ['J069', 'Acute upper respiratory infection, unspecified'],
  ['J189', 'Pneumonia, unspecified organism'],
];

describe('clinigate migrate and icd10 import on a database of their own', { timeout: 120_000 }, () => {
  let db: Awaited<ReturnType<typeof emptyDatabase>>;
  let dir: string;
  let codesFile: string;
  let client: pg.Client;
  beforeAll(async () => {
    db = await emptyDatabase();
    dir = mkdtempSync(join(tmpdir(), 'clinigate-cli-icd10-'));
    codesFile = join(dir, 'icd10cm-codes-test.txt');
    writeFileSync(codesFile, CODES.map(([code, title]) => `${code.padEnd(8)}${title}\n`).join(''));
    client = new pg.Client({ connectionString: db.url });
    await client.connect();
  });
  afterAll(async () => {
    await client?.end();
    await db?.drop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('migrate applies every migration file on a fresh database, then is a no-op', async () => {
    const files = readdirSync(MIGRATIONS_DIR)
      .filter((f) => /^\d+_.+\.sql$/.test(f))
      .sort();
    const first = await runCli(['migrate'], { DATABASE_URL: db.url });
    expect(first).toMatchObject({ code: 0, stderr: '' });
    const where = `127.0.0.1:${new URL(db.url).port || 5432}${new URL(db.url).pathname}`;
    expect(first.stdout).toBe(`Applied ${files.length} migrations to ${where}:\n${files.map((f) => `  ${f}\n`).join('')}`);
    // SQL: the CLI's migrations: which are applied is migration state.
    const { rows } = await client.query<{ name: string }>('SELECT name FROM schema_migrations ORDER BY name');
    expect(rows.map((r) => r.name)).toEqual(files);

    const second = await runCli(['migrate'], { DATABASE_URL: db.url });
    expect(second).toMatchObject({ code: 0, stderr: '', stdout: `Nothing to apply: ${where} is up to date.\n` });
  });

  it('icd10 import loads the file with its official titles; the same file again is a no-op, also through npm run icd10:import', async () => {
    const r = await runCli(['icd10', 'import', codesFile], { DATABASE_URL: db.url });
    expect(r).toMatchObject({ code: 0, stderr: '' });
    expect(r.stdout).toMatch(/^Imported 5 codes and 0 header rows in \d+\.\d s \(sha256 [0-9a-f]{12}\)\.\n$/);
    // SQL: the CLI's import of codes on a database with no app.
    const { rows } = await client.query<{ code: string; description: string; billable: boolean }>(
      'SELECT code, description, billable FROM icd10_codes ORDER BY code',
    );
    expect(rows).toEqual(
      [...CODES].sort(([a], [b]) => a.localeCompare(b)).map(([code, description]) => ({ code, description, billable: true })),
    );

    // src/cli/icd10-import-script.ts (the npm script) is the same command: the same content is unchanged.
    const again = await runCli([codesFile], { DATABASE_URL: db.url }, 'src/cli/icd10-import-script.ts');
    expect(again).toMatchObject({ code: 0, stdout: 'Unchanged: this content is already imported (5 codes, 0 headers).\n' });
    // SQL: the CLI's import record on a database with no app.
    expect((await client.query('SELECT count(*)::int AS n FROM icd10_imports')).rows[0].n).toBe(1);
  });

  it('icd10 import of a missing or malformed file: one line, exit 1, table untouched', async () => {
    const bad = join(dir, 'bad.txt');
    writeFileSync(bad, 'not a code line at all\n');
    const [missing, malformed] = await Promise.all([
      runCli(['icd10', 'import', join(dir, 'nope.txt')], { DATABASE_URL: db.url }),
      runCli(['icd10', 'import', bad], { DATABASE_URL: db.url }),
    ]);
    expect(missing.code).toBe(1);
    expect(missing.stderr.trim()).toMatch(/^error: ENOENT: no such file or directory/);
    expect(malformed.code).toBe(1);
    expect(malformed.stderr.trim()).toBe('error: icd10 codes file: malformed line 1');
    // SQL: the CLI's import left the table as it was, on a database with no app.
    expect((await client.query('SELECT count(*)::int AS n FROM icd10_codes')).rows[0].n).toBe(5);
  });
});
