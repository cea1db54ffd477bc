import type { Queryable } from '../db/pool.js';
import type { CodeRow } from './code-table.js';

export interface StoredCode {
  code: string; // undotted
  description: string;
  billable: boolean;
  isHeader: boolean;
  section?: string;
  chapter?: string;
}

export interface ImportRecord {
  id: number;
  codes_sha256: string;
  categories_sha256: string | null;
  code_count: number;
  header_count: number;
}

// Serialises imports across processes (several replicas starting with ICD10CM_FILE at once).
const IMPORT_LOCK = 727_100_004;

export async function lockImports(tx: Queryable): Promise<void> {
  await tx.query('SELECT pg_advisory_xact_lock($1)', [IMPORT_LOCK]);
}

export async function latestImport(db: Queryable): Promise<ImportRecord | undefined> {
  const { rows } = await db.query<ImportRecord>(
    `SELECT id, codes_sha256, categories_sha256, code_count, header_count FROM icd10_imports ORDER BY id DESC LIMIT 1`,
  );
  return rows[0];
}

export async function deleteAllCodes(tx: Queryable): Promise<void> {
  // DELETE rather than TRUNCATE: readers keep seeing the old table until the import commits.
  await tx.query('DELETE FROM icd10_codes');
}

/** One multi-row INSERT through unnest arrays: thousands of rows per statement. */
export async function insertCodes(tx: Queryable, rows: StoredCode[]): Promise<void> {
  if (rows.length === 0) return;
  await tx.query(
    `INSERT INTO icd10_codes (code, description, billable, is_header, section, chapter)
     SELECT * FROM unnest($1::text[], $2::text[], $3::boolean[], $4::boolean[], $5::text[], $6::text[])
     ON CONFLICT (code) DO UPDATE SET billable = icd10_codes.billable OR EXCLUDED.billable`,
    [
      rows.map((r) => r.code),
      rows.map((r) => r.description),
      rows.map((r) => r.billable),
      rows.map((r) => r.isHeader),
      rows.map((r) => r.section ?? null),
      rows.map((r) => r.chapter ?? null),
    ],
  );
}

export async function insertImportRecord(
  tx: Queryable,
  r: { codesSha256: string; categoriesSha256?: string; source: string; codeCount: number; headerCount: number; durationMs: number },
): Promise<number> {
  const { rows } = await tx.query<{ id: number }>(
    `INSERT INTO icd10_imports (codes_sha256, categories_sha256, source, code_count, header_count, duration_ms)
     VALUES ($1, $2, $3, $4, $5, $6) RETURNING id`,
    [r.codesSha256, r.categoriesSha256 ?? null, r.source, r.codeCount, r.headerCount, Math.round(r.durationMs)],
  );
  return rows[0].id;
}

/** How many codes are imported, and the characters of all their titles (`tx` in the transaction that then reads them). */
export async function codeTableSize(tx: Queryable): Promise<{ rows: number; chars: number }> {
  const { rows } = await tx.query<{ rows: number; chars: number }>(
    `SELECT count(*)::int AS rows, coalesce(sum(length(description)), 0)::int AS chars FROM icd10_codes`,
  );
  return rows[0];
}

/**
 * Every imported code, in the table's scan order, handed to `each` a batch at a time through a
 * cursor: never ~75,000 row objects at once (issue 28, the service's RSS). `tx` must be in a transaction.
 */
export async function forEachCodeRow(tx: Queryable, each: (row: CodeRow) => void, batchSize = 5_000): Promise<void> {
  await tx.query(`DECLARE icd10_codes_load NO SCROLL CURSOR FOR SELECT code, description, billable FROM icd10_codes`);
  for (;;) {
    const { rows } = await tx.query<CodeRow>(`FETCH ${Math.max(1, Math.floor(batchSize))} FROM icd10_codes_load`);
    for (const row of rows) each(row);
    if (rows.length === 0) break;
  }
  await tx.query(`CLOSE icd10_codes_load`);
}

export async function countCodes(db: Queryable): Promise<number> {
  const { rows } = await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM icd10_codes`);
  return rows[0].n;
}

/** The imported rows for these undotted codes, and whether anything is imported at all. */
export async function findCodes(db: Queryable, codes: string[]): Promise<{ imported: boolean; rows: CodeRow[] }> {
  const { rows } = await db.query<{ imported: boolean; found: CodeRow[] | null }>(
    `SELECT EXISTS (SELECT 1 FROM icd10_codes) AS imported,
            (SELECT json_agg(json_build_object('code', code, 'description', description, 'billable', billable))
               FROM icd10_codes WHERE code = ANY($1::text[])) AS found`,
    [codes],
  );
  return { imported: rows[0].imported, rows: rows[0].found ?? [] };
}
