import { readFileSync } from 'node:fs';
import type { CodiEspDoc } from './codiesp.js';
import { readFeedback } from './feedback.js';

const CODE = /^[A-Z][0-9][0-9A-Z](\.[0-9A-Z]{1,4})?$/;

/** A signed code as an item carries it: a dotted string, or an object with `code`. */
function codeOf(c: unknown): string | undefined {
  const raw = typeof c === 'string' ? c : c && typeof c === 'object' ? (c as { code?: unknown }).code : undefined;
  if (typeof raw !== 'string') return undefined;
  const u = raw.trim().toUpperCase().replace('.', '');
  const dotted = u.length > 3 ? `${u.slice(0, 3)}.${u.slice(3)}` : u;
  return CODE.test(dotted) ? dotted : undefined;
}

/**
 * The signed notes of a feedback export (`{items: [...]}`, a JSON array, or JSON lines; read by
 * feedback.ts) as coder training documents: the signed sections' text, with the signed codes as
 * gold. Items without signed text or codes teach nothing and are skipped.
 */
export function feedbackDocs(path: string): CodiEspDoc[] {
  const out: CodiEspDoc[] = [];
  readFeedback(readFileSync(path, 'utf8')).forEach((item, i) => {
    const body = Object.values(item.signed ?? {})
      .filter((s): s is string => typeof s === 'string' && s.trim() !== '')
      .join('\n');
    const codes = Array.isArray(item.signed_codes) ? item.signed_codes : [];
    const gold = new Set(codes.map(codeOf).filter((c): c is string => !!c));
    if (!body || gold.size === 0) return;
    out.push({ id: `feedback-${item.note_id ?? i}`, text: body, gold });
  });
  return out;
}
