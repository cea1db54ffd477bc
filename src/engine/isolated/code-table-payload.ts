import { CodeTable } from '../../terminology/code-table.js';
import { shippedCodeTable, type TableInForce } from '../../terminology/shipped-release.js';

/** A code table as posted to an engine thread: two strings and a byte array clone in one copy each. */
export interface CodeTablePayload {
  codes: string;
  descriptions: string;
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

/** The rows of `table`, in its order (titles never contain a line break). */
export function toPayload(table: CodeTable): CodeTablePayload {
  const codes: string[] = [];
  const descriptions: string[] = [];
  const billable = new Uint8Array(table.size);
  for (let i = 0; i < table.size; i++) {
    codes.push(table.codeAt(i));
    descriptions.push(table.descriptionAt(i).replace(/[\r\n]+/g, ' '));
    billable[i] = table.billableAt(i) ? 1 : 0;
  }
  return { codes: codes.join('\n'), descriptions: descriptions.join('\n'), billable };
}

/** The thread's own table, built from the same rows as the one in force in the main thread. */
export function fromPayload(payload: CodeTablePayload): CodeTable {
  const codes = payload.codes ? payload.codes.split('\n') : [];
  const descriptions = payload.descriptions.split('\n');
  return new CodeTable(codes.map((code, i) => ({ code, description: descriptions[i] ?? '', billable: payload.billable[i] === 1 })));
}
