/** Retry-After is honoured up to a day; a receiver cannot park a delivery for longer. */
const MAX_RETRY_AFTER_SECONDS = 86_400;

/** `Retry-After` as seconds from now: delta-seconds or an HTTP date; undefined when absent or unreadable. */
export function parseRetryAfter(header: string | undefined, now = Date.now()): number | undefined {
  if (!header) return undefined;
  const value = header.trim();
  if (/^\d+$/.test(value)) return Math.min(Number(value), MAX_RETRY_AFTER_SECONDS);
  const at = Date.parse(value);
  if (Number.isNaN(at)) return undefined;
  return Math.min(Math.max(0, (at - now) / 1000), MAX_RETRY_AFTER_SECONDS);
}
