import { CodeTable, type CodeRow } from '../../src/terminology/code-table.js';
import { readCodeDescriptions } from '../../src/terminology/icd10-file.js';

/** The official FY2026 code file in ../shared/data (tests that need it run only where it is). */
export const FULL_CODES_FILE = '../shared/data/icd10cm/icd10cm-codes-2026.txt';

/** The full FY2026 table, every code billable as in the CMS code-descriptions file. */
export async function fullCodeTable(): Promise<CodeTable> {
  const rows: CodeRow[] = [];
  for await (const r of readCodeDescriptions(FULL_CODES_FILE)) rows.push({ ...r, billable: true });
  return new CodeTable(rows);
}
