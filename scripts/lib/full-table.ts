import { join, resolve } from 'node:path';
import { CodeTable, type CodeRow } from '../../src/terminology/code-table.js';
import { readCategories, readCodeDescriptions } from '../../src/terminology/icd10-file.js';

export const ICD10_DIR = resolve(process.env.ICD10_DIR ?? '../shared/data/icd10cm');
export const CODIESP_DIR = resolve(process.env.CODIESP_DIR ?? '../shared/data/codiesp');

/** The FY2026 table from the CMS file, as the service holds it after an import. */
export async function loadFullTable(): Promise<{ table: CodeTable; ms: number; indexMs: number }> {
  const t0 = performance.now();
  const rows: CodeRow[] = [];
  for await (const r of readCodeDescriptions(join(ICD10_DIR, 'icd10cm-codes-2026.txt')))
    rows.push({ code: r.code, description: r.description, billable: true });
  const table = new CodeTable(rows);
  const t1 = performance.now();
  void table.index;
  return { table, ms: t1 - t0, indexMs: performance.now() - t1 };
}

/**
 * The FY2026 table's rows as an import stores them (and as the codify bench's engine row codes):
 * every code of the CMS file billable, then the categories that are not codes, as headers.
 */
export async function importedTableRows(): Promise<CodeRow[]> {
  const rows: CodeRow[] = [];
  for await (const r of readCodeDescriptions(join(ICD10_DIR, 'icd10cm-codes-2026.txt')))
    rows.push({ code: r.code, description: r.description, billable: true });
  const billable = new Set(rows.map((r) => r.code));
  for (const c of await readCategories(join(ICD10_DIR, 'icd10cm-categories-April-1-2026.csv')))
    if (!billable.has(c.code)) rows.push({ code: c.code, description: c.description, billable: false });
  return rows;
}

/** FNV-1a of a document id: folds that do not depend on file order. */
export function idHash(id: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < id.length; i++) h = Math.imul(h ^ id.charCodeAt(i), 0x01000193) >>> 0;
  return h;
}

/** One document in five is held apart from training, always the same ones. */
export const isHeldApart = (id: string) => idHash(id) % 5 === 0;
