import stringify from 'safe-stable-stringify';

/**
 * JSON with object keys sorted and undefined members left out, so the same value gives the same
 * bytes (and hash) whatever its key order or spacing. safe-stable-stringify's default output is
 * byte for byte what the hand-written version it replaced gave for parsed JSON bodies.
 */
export function canonicalJson(value: unknown): string {
  return stringify(value) ?? 'null';
}
