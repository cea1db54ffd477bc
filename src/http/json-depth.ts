/** DESIGN Errors: a JSON body nested deeper than this is 400. */
export const MAX_JSON_DEPTH = 64;

/**
 * True when the JSON text in `bytes` nests arrays and objects deeper than `max`: one pass over the
 * bytes, before anything parses them (a parser or validator that recurses would overflow its
 * stack on a body 100k deep). Brackets inside strings do not count.
 */
export function nestsDeeperThan(bytes: Uint8Array, max = MAX_JSON_DEPTH): boolean {
  if (openingBrackets(bytes, max) <= max) return false; // cannot nest deeper than it opens
  let depth = 0;
  let inString = false;
  for (let i = 0; i < bytes.length; i++) {
    const b = bytes[i];
    if (inString) {
      if (b === 0x5c)
        i++; // backslash: skip the escaped byte
      else if (b === 0x22) inString = false;
    } else if (b === 0x22) {
      inString = true;
    } else if (b === 0x5b || b === 0x7b) {
      if (++depth > max) return true;
    } else if (b === 0x5d || b === 0x7d) {
      depth--;
    }
  }
  return false;
}

/**
 * How many `[` and `{` bytes `bytes` holds, counted up to `max + 1` (native searches: an ordinary
 * webhook opens a handful, so the scan above runs only for bodies that could be too deep).
 */
function openingBrackets(bytes: Uint8Array, max: number): number {
  let count = 0;
  for (const bracket of [0x5b, 0x7b]) {
    for (let i = bytes.indexOf(bracket); i !== -1 && count <= max; i = bytes.indexOf(bracket, i + 1)) count++;
  }
  return count;
}
