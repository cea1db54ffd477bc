/** Longest text kept in an audit column; what is longer is cut (an id or header that long is not one). */
const MAX_TEXT = 512;
// A high surrogate not followed by a low one, or a low one not preceded by a high one (linear time).
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/**
 * A value PostgreSQL text can store: NUL (which it refuses, failing the whole statement) and
 * lone UTF-16 surrogates become U+FFFD, and it is cut to MAX_TEXT characters. A value sent with
 * such bytes is thus stored with them replaced, never dropped (DESIGN "Audit trail").
 */
export function storableText(value: string | undefined | null): string | null {
  if (value === undefined || value === null) return null;
  const text = value.length > MAX_TEXT ? value.slice(0, MAX_TEXT) : value;
  return text.replaceAll('\u0000', '\uFFFD').replace(LONE_SURROGATE, '\uFFFD');
}
