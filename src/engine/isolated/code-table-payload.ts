import { CodeTable, type CodeColumns } from '../../terminology/code-table.js';
import {
  adoptShippedIndexTabular,
  loadShippedIndexTabular,
  shippedIndexTabular,
  type IndexTabularParts,
} from '../../terminology/index-tabular.js';
import { loadShippedCodeTable } from '../../terminology/shipped-release.js';
import { adoptShippedTermTables, loadShippedTermTables, shippedTermTables, type TermTablesParts } from '../../terminology/term-tables.js';

/**
 * The tables an engine thread codes with: the code table in force with its title index, and the
 * shipped Index and Tabular and the FY2026 tables, as columns in shared memory. The first thread to need them builds
 * them and posts their parts back; every other thread adopts the same memory (issue 28, the
 * service's RSS: one copy of the tables, however many threads code).
 */
export interface CodeTablePayload {
  table: CodeColumns;
  indexTabular: IndexTabularParts;
  /** the FY2026 drug, neoplasm and external-cause tables */
  termTables: TermTablesParts;
}

/** What a thread is posted: the tables, or what to build them from (the shipped release, or an imported table's columns). */
export type TablesMessage = CodeTablePayload | { build: 'shipped' | CodeColumns };

/** `table`'s columns, with its title index (built here if it was not) and the shipped Index and Tabular. */
export function toPayload(table: CodeTable): CodeTablePayload {
  void table.index;
  return { table: table.columns(), indexTabular: shippedIndexTabular().parts(), termTables: shippedTermTables().parts() };
}

/** The thread's table over the posted columns; the posted Index and Tabular become this thread's shipped one. */
export function fromPayload(payload: CodeTablePayload): CodeTable {
  adoptShippedIndexTabular(payload.indexTabular);
  adoptShippedTermTables(payload.termTables);
  return new CodeTable(payload.table);
}

/**
 * A thread's tables from its message: adopted, or built here (then `built` is what to post back for
 * the other threads). Built one after another, the shipped files streamed in (no unzipped file
 * beside the tables at the thread's peak).
 */
export async function tablesOf(message: TablesMessage): Promise<{ table: CodeTable; built?: CodeTablePayload }> {
  if (!('build' in message)) return { table: fromPayload(message) };
  const table = message.build === 'shipped' ? await loadShippedCodeTable() : new CodeTable(message.build);
  void table.index;
  await loadShippedIndexTabular();
  await loadShippedTermTables();
  return { table, built: toPayload(table) };
}
