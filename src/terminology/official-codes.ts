import type { Queryable } from '../db/pool.js';
import type { CodeRow } from './code-table.js';
import { findCodes } from './icd10-codes.repo.js';
import { shippedRow } from './shipped-release.js';

/**
 * The rows of the table in force for these codes: the imported table when there is one (the
 * source of every process's in-memory table), else the FY2026 release the product ships.
 */
export async function officialRows(db: Queryable, codes: string[]): Promise<Map<string, CodeRow>> {
  const { imported, rows } = await findCodes(db, codes);
  if (imported) return new Map(rows.map((r) => [r.code, r]));
  const out = new Map<string, CodeRow>();
  for (const code of codes) {
    const row = shippedRow(code);
    if (row) out.set(code, row);
  }
  return out;
}
