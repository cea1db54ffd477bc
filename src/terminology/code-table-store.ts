import type { Pool } from '../db/pool.js';
import { withTransaction } from '../db/transaction.js';
import type { Logger } from '../lib/logger.js';
import { CodeColumnsBuilder, type CodeColumns } from './code-columns.js';
import { CodeTable } from './code-table.js';
import { codeTableSize, forEachCodeRow, latestImport } from './icd10-codes.repo.js';
import { importIcd10 } from './icd10-import.js';
import { shippedCodeTable, type TableInForce } from './shipped-release.js';

/**
 * The ICD-10-CM table in force: the imported codes, held in memory, or the FY2026 release the
 * product ships when nothing is imported (read from its file only by a thread that codes with it:
 * `inForce()` names it without loading it). `current()` is synchronous for the engine; `refresh()`
 * swaps in a new table after an import (this process's, or another's, seen by `watch`).
 */
export class CodeTableStore {
  private table: CodeTable | undefined;
  private importId: number | null = null;
  private timer?: NodeJS.Timeout;

  constructor(
    private readonly db: Pool,
    private readonly logger?: Logger,
    /** Build the title index at load (an in-process engine uses it); off when only worker threads code. */
    private readonly indexEagerly = true,
  ) {}

  current(): CodeTable {
    return this.table ?? shippedCodeTable();
  }

  /** The imported table, or 'shipped': an engine worker then reads the shipped file itself. */
  inForce(): TableInForce {
    return this.table ?? 'shipped';
  }

  get source(): 'imported' | 'shipped' {
    return this.importId === null ? 'shipped' : 'imported';
  }

  /** Loads the table when the last import differs from the one in memory; true when it changed. */
  async refresh(): Promise<boolean> {
    const last = await latestImport(this.db);
    const id = last?.id ?? null;
    if (id === this.importId) return false;
    const columns = id === null ? undefined : await this.loadColumns();
    const table = columns && columns.starts.length > 1 ? new CodeTable(columns) : undefined;
    this.table = table;
    this.importId = table ? id : null;
    // Build the title index now rather than on the first codify request.
    if (this.indexEagerly) void this.current().index;
    this.logger?.info('code table loaded', { source: this.source, codes: table?.size ?? 'shipped', import_id: this.importId });
    return true;
  }

  /** The imported rows, straight into columns (one snapshot: the cursor's transaction). */
  private loadColumns(): Promise<CodeColumns> {
    return withTransaction(this.db, async (tx) => {
      const builder = new CodeColumnsBuilder(await codeTableSize(tx));
      await forEachCodeRow(tx, (row) => builder.add(row.code, row.description, row.billable));
      return builder.finish();
    });
  }

  /** Re-checks the import record every `intervalMs`, so an import by another process is picked up. */
  watch(intervalMs = 60_000): void {
    this.stop();
    this.timer = setInterval(() => {
      this.refresh().catch((err: Error) => this.logger?.warn('code table refresh failed', { error_name: err.name }));
    }, intervalMs);
    this.timer.unref();
  }

  stop(): void {
    clearInterval(this.timer);
    this.timer = undefined;
  }
}

/**
 * Start-up: imports `ICD10CM_FILE` when set (a no-op when its content is the last import's),
 * then loads the table in force, unless `load` is false (a thread that never codes: its store
 * names the shipped release and is never refreshed).
 */
export async function openCodeTableStore(
  pool: Pool,
  logger: Logger,
  options: { icd10File?: string; watchMs?: number; indexEagerly?: boolean; load?: boolean } = {},
): Promise<CodeTableStore> {
  if (options.icd10File) {
    const result = await importIcd10(pool, { codesFile: options.icd10File });
    logger.info('ICD-10-CM import', {
      status: result.status,
      codes: result.codeCount,
      headers: result.headerCount,
      duration_ms: Math.round(result.durationMs),
    });
  }
  const store = new CodeTableStore(pool, logger, options.indexEagerly);
  if (options.load === false) return store;
  await store.refresh();
  if (options.watchMs) store.watch(options.watchMs);
  return store;
}
