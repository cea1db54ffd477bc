import { readFileSync } from 'node:fs';
import type { CodiEspDoc } from './codiesp.js';

/** One item of `GET /api/v1/feedback`: what the clinician signed, and the codes signed with it. */
interface FeedbackItem {
  note_id?: unknown;
  signed?: unknown;
  signed_codes?: unknown;
}

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
 * The signed notes of a feedback export (`{items: [...]}`, a JSON array, or JSON lines) as
 * training documents: the signed sections' text, with the signed codes as gold. Items without
 * signed text or codes teach nothing and are skipped.
 */
export function readFeedback(path: string): CodiEspDoc[] {
  const text = readFileSync(path, 'utf8').trim();
  let items: FeedbackItem[];
  let whole: unknown;
  try {
    whole = JSON.parse(text);
  } catch {
    whole = undefined; // JSON lines
  }
  if (Array.isArray(whole)) items = whole as FeedbackItem[];
  else if (whole && typeof whole === 'object' && Array.isArray((whole as { items?: unknown }).items))
    items = (whole as { items: FeedbackItem[] }).items;
  else if (whole && typeof whole === 'object') items = [whole as FeedbackItem];
  else
    items = text
      .split(/\r?\n/)
      .filter((l) => l.trim())
      .map((l) => JSON.parse(l) as FeedbackItem);
  const out: CodiEspDoc[] = [];
  items.forEach((item, i) => {
    const sections = item.signed && typeof item.signed === 'object' ? Object.values(item.signed as Record<string, unknown>) : [];
    const body = sections.filter((s): s is string => typeof s === 'string' && s.trim() !== '').join('\n');
    const gold = new Set((Array.isArray(item.signed_codes) ? item.signed_codes : []).map(codeOf).filter((c): c is string => !!c));
    if (!body || gold.size === 0) return;
    out.push({ id: `feedback-${typeof item.note_id === 'string' ? item.note_id : i}`, text: body, gold });
  });
  return out;
}
