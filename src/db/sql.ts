/** SQL expression rendering a timestamptz column as ISO 8601 UTC with milliseconds and `Z`. */
export const isoTime = (column: string, alias = column.split('.').pop()!) =>
  `to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS ${alias}`;

/**
 * Runs a statement that changes at most `chunk` rows until it changes fewer: a long sweep (data
 * retention) in short transactions, so no run holds its locks for long. Returns the rows changed.
 */
export async function inChunks(chunk: number, once: (chunk: number) => Promise<number | null>): Promise<number> {
  let total = 0;
  for (;;) {
    const changed = (await once(chunk)) ?? 0;
    total += changed;
    if (changed < chunk) return total;
  }
}
