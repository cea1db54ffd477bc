import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { gunzipSync } from 'node:zlib';
import { CodeColumnsBuilder, type CodeColumns } from './code-columns.js';
import { CodeTable, type CodeRow } from './code-table.js';
import { forEachGzLine, forEachGzLineSync } from './gz-text.js';
import { parseCodeLine } from './icd10-file.js';

/**
 * The ICD-10-CM release the product ships (data/icd10cm/, public domain, see its README): the
 * FY2026 code table, in force whenever no release was imported, the FY2023 Index and Tabular
 * the encoder reads, and the FY2026 drug, neoplasm and external-cause tables. Paths resolve from this file, so src/ (tsx) and dist/ (compiled) both find them.
 */
const DATA = new URL('../../data/icd10cm/', import.meta.url);
export const SHIPPED_CODES_FILE = fileURLToPath(new URL('icd10cm-codes-2026.txt.gz', DATA));
export const SHIPPED_INDEX_TABULAR_FILE = fileURLToPath(new URL('icd10cm-index-tabular-2023.tsv.gz', DATA));
/** The FY2026 Table of Drugs and Chemicals, Neoplasm Table and External Cause Index, compiled. */
export const SHIPPED_TABLES_FILE = fileURLToPath(new URL('icd10cm-tables-2026.tsv.gz', DATA));
export const SHIPPED_RELEASE = 'FY2026';

let table: CodeTable | undefined;

/** The shipped FY2026 table (74,719 billable codes), read once per thread on first use. */
export function shippedCodeTable(): CodeTable {
  if (!table) {
    const rows = new ShippedRows();
    forEachGzLineSync(SHIPPED_CODES_FILE, rows.line, rows.sized);
    table = new CodeTable(rows.finish());
  }
  return table;
}

/** `shippedCodeTable()` read ahead, its file streamed (an engine thread: no unzipped copy of the file at its peak). */
export async function loadShippedCodeTable(): Promise<CodeTable> {
  if (!table) {
    const rows = new ShippedRows();
    await forEachGzLine(SHIPPED_CODES_FILE, rows.line, rows.sized);
    table ??= new CodeTable(rows.finish());
  }
  return table;
}

/**
 * Line by line straight into the table's columns (no string of the whole file kept), sized by the
 * file's length: more than its titles, and a line a code of ~86 characters (the builder grows past it).
 */
class ShippedRows {
  private builder?: CodeColumnsBuilder;
  private n = 0;

  readonly sized = (bytes: number) => {
    this.builder = new CodeColumnsBuilder({ rows: Math.ceil(bytes / 64), chars: bytes });
  };

  readonly line = (line: string) => {
    const row = parseCodeLine(line, ++this.n);
    if (row) this.builder!.add(row.code, row.description, true);
  };

  finish(): CodeColumns {
    return this.builder!.finish();
  }
}

/** The shipped table held in this thread, if it was loaded (a test or bench can check). */
export const shippedTableLoaded = () => table !== undefined;

/** The table in force as a thread passes it on: an imported table, or the shipped one by name (each thread reads its own copy). */
export type TableInForce = CodeTable | 'shipped';

export const resolveTable = (t: TableInForce): CodeTable => (t === 'shipped' ? shippedCodeTable() : t);

/** This thread's shipped table becomes the one an engine thread built (its columns, posted back: shared memory). */
export function adoptShippedCodeTable(columns: CodeColumns): void {
  table ??= new CodeTable(columns);
}

let lookup: { text: string; starts: Int32Array } | undefined;

/**
 * One code's row of the shipped table: from the table when this thread holds it (the thread that
 * owns the engine threads shares theirs), else without building it, from the file's text and its
 * line starts sorted by code (~7 MB, not the table and its index).
 */
export function shippedRow(code: string): CodeRow | undefined {
  if (table) {
    const row = table.get(code);
    return row && { ...row, code };
  }
  lookup ??= shippedLookup();
  const { text, starts } = lookup;
  const key = code.padEnd(7, ' ');
  let lo = 0;
  let hi = starts.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const at = text.slice(starts[mid], starts[mid] + 7);
    if (at === key) {
      const end = text.indexOf('\n', starts[mid]);
      return { code, description: text.slice(starts[mid] + 8, end < 0 ? undefined : end).trimEnd(), billable: true };
    }
    if (at < key) lo = mid + 1;
    else hi = mid - 1;
  }
  return undefined;
}

function shippedLookup(): { text: string; starts: Int32Array } {
  const text = gunzipSync(readFileSync(SHIPPED_CODES_FILE)).toString('latin1');
  const list: number[] = [];
  for (let i = 0; i < text.length;) {
    const end = text.indexOf('\n', i);
    if (text.charCodeAt(i) > 32) list.push(i);
    if (end < 0) break;
    i = end + 1;
  }
  const starts = Int32Array.from(list);
  const codeAt = (s: number) => text.slice(s, s + 7);
  starts.sort((a, b) => (codeAt(a) < codeAt(b) ? -1 : codeAt(a) > codeAt(b) ? 1 : 0));
  return { text, starts };
}
