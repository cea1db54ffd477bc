import type { SharedText } from './shared-text.js';

// The rows of the compiled Index and tables (data/icd10cm/*.tsv.gz): `kind \t level \t field ...`,
// one term a line, a term's subterms after it at deeper levels. Read once per thread at load, from
// the file's text in shared memory (gz-text.ts), offsets in characters.

const TAB = 0x09;
const NL = 0x0a;

/** The first `code` in `text` at or after `from` and before `to`, else `to`: a loop over the bytes (a line's few characters; a call into Buffer.indexOf costs more). */
function find(text: SharedText, code: number, from: number, to: number): number {
  const bytes = text.parts.wide ? undefined : text.parts.bytes;
  if (!bytes) {
    const at = text.indexOf(code, from);
    return at < 0 || at > to ? to : at;
  }
  let at = from;
  while (at < to && bytes[at] !== code) at++;
  return at;
}

/** Each line of `text` that has a tab: its kind (first character), start, first tab and end. */
export function forEachRow(text: SharedText, visit: (kind: number, at: number, t1: number, nl: number) => void): void {
  let at = 0;
  while (at < text.length) {
    const nl = find(text, NL, at, text.length);
    const t1 = find(text, TAB, at, nl);
    if (t1 < nl) visit(text.charCodeAt(at), at, t1, nl);
    at = nl + 1;
  }
}

/** The level after a row's first tab `t1` (the digits up to the next tab), and where its fields start. */
export function levelAfter(text: SharedText, t1: number): { level: number; start: number } {
  let level = 0;
  let at = t1 + 1;
  for (let c = text.charCodeAt(at); c >= 0x30 && c <= 0x39; c = text.charCodeAt(++at)) level = level * 10 + (c - 0x30);
  return { level, start: find(text, TAB, at, text.length) + 1 };
}

/**
 * Writes into `fieldEnd` from `at` where each of the `count` tab-separated fields that start at
 * `start` ends (offsets from `start`; the last field runs to `nl`, the end of the line; a missing
 * field is empty).
 */
export function putFieldEnds(text: SharedText, start: number, nl: number, count: number, fieldEnd: Uint16Array, at: number): void {
  let from = start;
  for (let k = 0; k < count; k++) {
    const tab = k < count - 1 ? find(text, TAB, from, nl) : nl;
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
