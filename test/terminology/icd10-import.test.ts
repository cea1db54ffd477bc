import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createPool, type Pool } from '../../src/db/pool.js';
import { createLogger } from '../../src/lib/logger.js';
import { CodeTableStore, openCodeTableStore } from '../../src/terminology/code-table-store.js';
import { importIcd10 } from '../../src/terminology/icd10-import.js';
import { forEachCodeRow, insertCodes, insertImportRecord } from '../../src/terminology/icd10-codes.repo.js';
import { withTransaction } from '../../src/db/transaction.js';
import type { CodeRow } from '../../src/terminology/code-table.js';
import { newCaller } from '../helpers/tokens.js';
import { codify, startCodifyApp } from '../helpers/codify-app.js';
import { isolatedDatabase, type IsolatedDatabase } from '../helpers/isolated-database.js';

const DIR = '../shared/data/icd10cm';
const CODES_FILE = `${DIR}/icd10cm-codes-2026.txt`;
const CATEGORIES_FILE = `${DIR}/icd10cm-categories-April-1-2026.csv`;

const tmp = mkdtempSync(join(tmpdir(), 'clinigate-icd10-'));
function file(name: string, text: string): string {
  const path = join(tmp, name);
  writeFileSync(path, text);
  return path;
}
const SMALL = [
  'I10     Essential (primary) hypertension',
  'E119    Type 2 diabetes mellitus without complications',
  'J189    Pneumonia, unspecified organism',
  '',
].join('\n');

// The import replaces the code table: it runs in a database of its own, never the shared test one.
// Skipped under vitest.terminology.config.ts, which has no database.
describe.runIf(Boolean(inject('adminDatabaseUrl')))('ICD-10-CM import into PostgreSQL', () => {
  let db: IsolatedDatabase;
  let pool: Pool;
  beforeAll(async () => {
    db = await isolatedDatabase('test_icd10_import');
    pool = createPool(db.url, 2);
  });
  afterAll(async () => {
    await pool.end();
    await db.drop();
  });

  // SQL: the import into the table, on a pool with no app.
  const count = async () => (await pool.query(`SELECT count(*)::int AS n FROM icd10_codes`)).rows[0].n;
  // SQL: the import records, on a pool with no app.
  const imports = async () => (await pool.query(`SELECT count(*)::int AS n FROM icd10_imports`)).rows[0].n;

  it('imports a codes file, and the same content again is a no-op', async () => {
    const path = file('small.txt', SMALL);
    const first = await importIcd10(pool, { codesFile: path });
    expect(first).toMatchObject({ status: 'imported', codeCount: 3, headerCount: 0 });
    expect(await count()).toBe(3);
    const again = await importIcd10(pool, { codesFile: file('small-copy.txt', SMALL) });
    expect(again).toMatchObject({ status: 'unchanged', importId: first.importId });
    expect(await imports()).toBe(1);
  });

  it('replaces the table when the content differs, in one transaction', async () => {
    const changed = await importIcd10(pool, { codesFile: file('changed.txt', 'I10     Essential (primary) hypertension\n') });
    expect(changed.status).toBe('imported');
    // SQL: the table as the failed import left it.
    expect((await pool.query(`SELECT code FROM icd10_codes`)).rows).toEqual([{ code: 'I10' }]);
  });

  it('leaves the table as it was when the file is malformed', async () => {
    await expect(importIcd10(pool, { codesFile: file('bad.txt', 'I10     Hypertension\n12345   not a code\n') })).rejects.toThrow(
      /malformed line 2/,
    );
    // SQL: the table as the failed import left it.
    expect((await pool.query(`SELECT code FROM icd10_codes`)).rows).toEqual([{ code: 'I10' }]);
  });

  it('stores categories as non-billable header rows; a billable 3-character code stays billable', async () => {
    const categories = file(
      'cats.csv',
      'ICD10-CM-CODE,description,section,chapter\nI10,Essential (primary) hypertension,I10-I1A,9\nE11,Type 2 diabetes mellitus,E08-E13,4\n',
    );
    const res = await importIcd10(pool, { codesFile: file('small2.txt', SMALL), categoriesFile: categories });
    expect(res).toMatchObject({ status: 'imported', codeCount: 3, headerCount: 1 });
    // SQL: the stored flags (billable, header, section), on a pool with no app.
    const { rows } = await pool.query(
      `SELECT code, billable, is_header, section FROM icd10_codes WHERE code IN ('I10', 'E11') ORDER BY code`,
    );
    expect(rows).toEqual([
      { code: 'E11', billable: false, is_header: true, section: 'E08-E13' },
      { code: 'I10', billable: true, is_header: false, section: null },
    ]);
  });

  it('the store loads the imported table, and the shipped FY2026 release when nothing is imported', async () => {
    const store = new CodeTableStore(pool);
    expect(await store.refresh()).toBe(true);
    expect(store.source).toBe('imported');
    expect(store.current().size).toBe(4);
    expect(await store.refresh()).toBe(false);
    const empty = await isolatedDatabase('test_icd10_empty');
    const emptyPool = createPool(empty.url, 1);
    const fresh = new CodeTableStore(emptyPool);
    await fresh.refresh();
    expect(fresh.source).toBe('shipped');
    expect(fresh.inForce()).toBe('shipped');
    expect(fresh.current().size).toBe(74_719);
    // Codes no starter list ever held.
    expect(fresh.current().get('S83.241A')?.description).toBe(
      'Other tear of medial meniscus, current injury, right knee, initial encounter',
    );
    expect(fresh.current().has('QA00101')).toBe(true);
    await emptyPool.end();
    await empty.drop();
  });

  it('the store reads each imported row whole and in the order PostgreSQL scans them, whatever its title holds', async () => {
    const db = await isolatedDatabase('test_icd10_titles');
    const titled = createPool(db.url, 1);
    // The astral character is one character to PostgreSQL and two to JavaScript: the size hint falls short by one.
    const titles = ['Pain, left knee\nand hip', 'Bite by \u{1F40D} (astral)', '', 'Plain title', 'Fracture, 2nd\u2013 3rd rib', 'Last'];
    await insertCodes(
      titled,
      titles.map((description, i) => ({ code: `Z99${i}`, description, billable: i % 2 === 0, isHeader: false })),
    );
    await insertImportRecord(titled, { codesSha256: 'x', source: 'test', codeCount: titles.length, headerCount: 0, durationMs: 0 });
    const { rows } = await titled.query(`SELECT code, description, billable FROM icd10_codes`);
    // A batch at a time through the cursor: the same rows, in the same order, across batch boundaries.
    const batched: CodeRow[] = [];
    await withTransaction(titled, (tx) => forEachCodeRow(tx, (row) => batched.push(row), 4));
    expect(batched).toEqual(rows);
    const store = new CodeTableStore(titled);
    await store.refresh();
    const table = store.current();
    expect(Array.from({ length: table.size }, (_, i) => table.row(i))).toEqual(rows);
    expect(table.get('Z991')?.description).toBe('Bite by \u{1F40D} (astral)');
    await titled.end();
    await db.drop();
  });

  it('a store opened not to load (a thread that never codes) still imports a new file, and holds no table', async () => {
    const logger = createLogger('error', { silent: true });
    const path = file(
      'api-thread.txt',
      'I10     Essential (primary) hypertension\nA000    Cholera due to Vibrio cholerae 01, biovar cholerae\n',
    );
    const apiThread = await openCodeTableStore(pool, logger, { icd10File: path, load: false });
    expect(await count()).toBe(2); // imported for the threads that code
    expect(apiThread.source).toBe('shipped');
    expect(apiThread.inForce()).toBe('shipped');
    const workersThread = await openCodeTableStore(pool, logger, { icd10File: path });
    expect(workersThread.source).toBe('imported');
    expect(workersThread.current().size).toBe(2);
    expect(workersThread.current().has('A000')).toBe(true);
  });

  describe.runIf(existsSync(CODES_FILE))('the full FY2026 file', () => {
    it('imports 74k codes with the categories, idempotently, and codify answers only codes of that table', async () => {
      const full = await importIcd10(pool, { codesFile: CODES_FILE, categoriesFile: CATEGORIES_FILE });
      expect(full.status).toBe('imported');
      expect(full.codeCount).toBeGreaterThan(70_000);
      expect(full.headerCount).toBeGreaterThan(1_000);
      expect((await importIcd10(pool, { codesFile: CODES_FILE, categoriesFile: CATEGORIES_FILE })).status).toBe('unchanged');

      const t = await startCodifyApp('icd10_full', { db });
      try {
        const table = t.codeTables.current();
        expect(t.codeTables.source).toBe('imported');
        expect(table.size).toBe(full.codeCount + full.headerCount);
        const note = [
          'A 67-year-old man with hypertension, type 2 diabetes with diabetic neuropathy and COPD presented with fever, cough and dyspnea.',
          'Chest X-ray showed right lower lobe pneumonia; no pleural effusion.',
          'Family history of colon cancer. Rule out pulmonary embolism.',
          'He was treated for acute kidney injury and hyponatremia; anemia was noted.',
        ].join('\n');
        for (const model of ['fast', 'balanced', 'high-quality']) {
          const res = await codify(t, await newCaller(), { medical_note: note, model });
          expect(res.status).toBe(200);
          expect(res.body.final_code_assessments.length).toBeGreaterThan(3);
          for (const a of res.body.final_code_assessments) {
            expect(table.isBillable(a.code), a.code).toBe(true);
            expect(a.description).toBe(table.get(a.code)?.description);
          }
          for (const a of res.body.discarded_code_assessments) expect(table.has(a.code), a.code).toBe(true);
        }
      } finally {
        await t.close();
      }
    }, 120_000);
  });
});
