import { createHash } from 'node:crypto';

/**
 * A UUID (version 5 layout) derived from its parts: the same parts always give the same id, so
 * a retried step finds what its first attempt made instead of making it twice.
 */
export function derivedUuid(...parts: string[]): string {
  const h = createHash('sha256').update(parts.join('\u0000')).digest('hex');
  const variant = ((parseInt(h[16], 16) & 0x3) | 0x8).toString(16);
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-5${h.slice(13, 16)}-${variant}${h.slice(17, 20)}-${h.slice(20, 32)}`;
}
