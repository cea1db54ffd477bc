import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { basename } from 'node:path';
import type { Pool } from '../db/pool.js';
import { withTransaction } from '../db/transaction.js';
import { readCategories, readCodeDescriptions } from './icd10-file.js';
import { deleteAllCodes, insertCodes, insertImportRecord, latestImport, lockImports, type StoredCode } from './icd10-codes.repo.js';

export interface ImportOptions {
  /** CMS `icd10cm-codes-YYYY.txt` (Code Descriptions in Tabular Order): every code billable. */
  codesFile: string;
  /** Optional 3-character categories CSV: stored as non-billable header rows. */
  categoriesFile?: string;
  /** Rows per INSERT statement. */
  batchSize?: number;
  /** Called after each batch with rows written so far and the total. */
  onProgress?: (done: number, total: number) => void;
}

export interface ImportResult {
  status: 'imported' | 'unchanged';
  importId?: number;
  codeCount: number;
  headerCount: number;
  codesSha256: string;
  durationMs: number;
}

export async function sha256File(path: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(path)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

async function readRows(options: ImportOptions): Promise<{ codes: StoredCode[]; headers: StoredCode[] }> {
  const codes: StoredCode[] = [];
  for await (const r of readCodeDescriptions(options.codesFile)) {
    codes.push({ code: r.code, description: r.description, billable: true, isHeader: false });
  }
  if (codes.length === 0) throw new Error('icd10 codes file: no codes found');
  const billable = new Set(codes.map((c) => c.code));
  const headers: StoredCode[] = [];
  if (options.categoriesFile) {
    for (const c of await readCategories(options.categoriesFile)) {
      // A 3-character code that is itself billable (I10) stays billable.
      if (billable.has(c.code)) continue;
      headers.push({ code: c.code, description: c.description, billable: false, isHeader: true, section: c.section, chapter: c.chapter });
    }
  }
  return { codes, headers };
}

/**
 * Imports the CMS code table into PostgreSQL. Idempotent: the same file content as the last
 * import is a no-op; different content replaces the table in one transaction, so readers see
 * the old table or the new one, never a mix.
 */
export async function importIcd10(pool: Pool, options: ImportOptions): Promise<ImportResult> {
  const started = performance.now();
  const codesSha256 = await sha256File(options.codesFile);
  const categoriesSha256 = options.categoriesFile ? await sha256File(options.categoriesFile) : undefined;
  const same = (last: Awaited<ReturnType<typeof latestImport>>) =>
    last !== undefined && last.codes_sha256 === codesSha256 && (last.categories_sha256 ?? undefined) === categoriesSha256;

  const last = await latestImport(pool);
  if (same(last)) {
    return {
      status: 'unchanged',
      importId: last!.id,
      codeCount: last!.code_count,
      headerCount: last!.header_count,
      codesSha256,
      durationMs: performance.now() - started,
    };
  }
  const { codes, headers } = await readRows(options);
  const all = [...codes, ...headers];
  const batch = options.batchSize ?? 5_000;
  return withTransaction(pool, async (tx) => {
    await lockImports(tx);
    // Another process may have imported the same content while this one read the file.
    const current = await latestImport(tx);
    if (same(current)) {
      return {
        status: 'unchanged' as const,
        importId: current!.id,
        codeCount: current!.code_count,
        headerCount: current!.header_count,
        codesSha256,
        durationMs: performance.now() - started,
      };
    }
    await deleteAllCodes(tx);
    for (let i = 0; i < all.length; i += batch) {
      await insertCodes(tx, all.slice(i, i + batch));
      options.onProgress?.(Math.min(i + batch, all.length), all.length);
    }
    const durationMs = performance.now() - started;
    const importId = await insertImportRecord(tx, {
      codesSha256,
      categoriesSha256,
      source: basename(options.codesFile),
      codeCount: codes.length,
      headerCount: headers.length,
      durationMs,
    });
    return { status: 'imported' as const, importId, codeCount: codes.length, headerCount: headers.length, codesSha256, durationMs };
  });
}
