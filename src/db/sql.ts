/** SQL expression rendering a timestamptz column as ISO 8601 UTC with milliseconds and `Z`. */
export const isoTime = (column: string, alias = column.split('.').pop()!) =>
  `to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS ${alias}`;
