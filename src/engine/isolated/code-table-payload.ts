import { CodeTable } from '../../terminology/code-table.js';
import { shippedCodeTable, type TableInForce } from '../../terminology/shipped-release.js';

/** A code table as posted to an engine thread: its columns (two strings, the titles' offsets and the billable flags), one copy each. */
export interface CodeTablePayload {
  /** undotted codes, one per line */
  codes: string;
  /** every title, concatenated; title i is text.slice(starts[i], starts[i + 1]) */
  text: string;
  starts: Int32Array;
  billable: Uint8Array;
}

/** The table in force as posted: its rows, or the name of the shipped release (the thread reads the file itself). */
export type TablePayload = CodeTablePayload | { shipped: true };

export function payloadOf(table: TableInForce): TablePayload {
  return table === 'shipped' ? { shipped: true } : toPayload(table);
}

/** The thread's table: the shipped release, read from its file, or the rows posted. */
export function tableOf(payload: TablePayload): CodeTable {
  return 'shipped' in payload ? shippedCodeTable() : fromPayload(payload);
}

/** The rows of `table`, in its order. */
export function toPayload(table: CodeTable): CodeTablePayload {
  const { codes, text, starts, billable } = table.columns();
  return { codes: codes.join('\n'), text, starts, billable };
}

/** The thread's own table, built from the same rows as the one in force in the main thread. */
export function fromPayload(payload: CodeTablePayload): CodeTable {
  const codes = payload.codes ? payload.codes.split('\n') : [];
  return new CodeTable({ codes, text: payload.text, starts: payload.starts, billable: payload.billable });
}
