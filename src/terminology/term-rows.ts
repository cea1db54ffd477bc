// The rows of the compiled Index and tables (data/icd10cm/*.tsv.gz): `kind \t level \t field ...`,
// one term a line, a term's subterms after it at deeper levels. Read once per thread at load.

/**
 * Writes into `fieldEnd` from `at` (by default its end: a number array grows) where each of the
 * `count` tab-separated fields that start at `start` ends (offsets from `start`; the last field
 * runs to `nl`, the end of the line; a missing field is empty).
 */
export function putFieldEnds(
  text: string,
  start: number,
  nl: number,
  count: number,
  fieldEnd: number[] | Uint16Array,
  at = fieldEnd.length,
): void {
  let from = start;
  for (let k = 0; k < count; k++) {
    let tab = k < count - 1 ? text.indexOf('\t', from) : nl;
    if (tab < 0 || tab > nl) tab = nl;
    fieldEnd[at + k] = tab - start;
    from = Math.min(tab + 1, nl);
  }
}

/** For each term, the index of the first term after its subtree (the next at its level or above), in shared memory. */
export function subtreeEnds(levels: ArrayLike<number>): Int32Array {
  const end = new Int32Array(new SharedArrayBuffer(4 * levels.length));
  const open: number[] = [];
  for (let i = 0; i <= levels.length; i++) {
    const lv = i < levels.length ? levels[i] : -1;
    while (open.length && levels[open[open.length - 1]] >= lv) end[open.pop()!] = i;
    if (i < levels.length) open.push(i);
  }
  return end;
}
