import type { Candidates } from '../candidate.js';
import { dotted } from '../candidate.js';

const UNSPECIFIED = /\bunspecified\b/i;

/**
 * A code whose title is "unspecified" says less than a code of the same category the note also
 * states (J02.9 "pharyngitis, unspecified" beside J02.0 "streptococcal pharyngitis"; F10.229 beside
 * F10.220; M25.639 "unspecified wrist" beside M25.632): the coder reports the specific one only
 * (guidelines I.A.9 "unspecified" codes, I.B.2 level of detail). Only when read from other words
 * (another sentence, "sore throat" before "strep pharyngitis") or from more of the same words:
 * two readings of the very same words are the reader's to choose. A code whose title is itself unspecified is no reason to drop another.
 */
export function applyUnspecifiedSiblings(cands: Candidates): void {
  const { table } = cands.ctx;
  const finals = cands.finals();
  // Each title read once (not once per pair of finals).
  const titles = finals.map((c) => table.descriptionAt(c.index));
  const unspecified = titles.map((t) => UNSPECIFIED.test(t));
  const bases = finals.map((c) => baseOf(c.code));
  for (let i = 0; i < finals.length; i++) {
    const u = finals[i];
    if (!u.final || u.code.length < 4 || !unspecified[i]) continue;
    const [base, seventh] = bases[i];
    // The level above the unspecified code: J02 for J02.9, F10.22 for F10.229, M25.63 for M25.639.
    const parent = base.slice(0, -1);
    const specific = finals.find((s, j) => {
      if (s === u || !s.final || unspecified[j]) return false;
      const b = bases[j][0];
      if (bases[j][1] !== seventh || b.length < base.length || !b.startsWith(parent) || b === base) return false;
      // Read from other words: two readings of the same words are the reader's to choose between.
      const apart = !s.spans.some((p) => u.spans.some((q) => p.start < q.end && q.start < p.end));
      // Or the specific one read from more of the same words ("..., uncomplicated" after "alcohol dependence with intoxication").
      const wider = u.spans.every((q) => s.spans.some((p) => p.start <= q.start && q.end <= p.end && p.end - p.start > q.end - q.start));
      return (apart || wider) && sameCondition(titles[i], titles[j]);
    });
    if (!specific) continue;
    cands.discard(
      u,
      `Discarded: unspecified, and the note states the more specific ${dotted(specific.code)} of the same subcategory (guidelines I.B.2, I.A.9).`,
    );
  }
}

/**
 * Whether the specific title names the condition the unspecified one leaves open: the same title
 * with the unspecified part stated ("Pain in unspecified knee" / "Pain in right knee"; "...,
 * unspecified" / "..., uncomplicated"), or its head word ("Acute pharyngitis, unspecified" /
 * "Streptococcal pharyngitis"). Not a neighbour of the category ("Dyspnea, unspecified" /
 * "Shortness of breath"; "Gastrointestinal hemorrhage, unspecified" / "Melena"), which a note may
 * state beside it.
 */
function sameCondition(unspecified: string, specific: string): boolean {
  const { open, head } = patternsOf(unspecified);
  const s = specific.toLowerCase();
  return open.test(s) || (head !== undefined && head.test(s));
}

// An unspecified title's patterns, made once per thread and title (a note compares it with each
// specific sibling; notes after notes meet the same titles). Bounded: a full cache starts again.
const patterns = new Map<string, { open: RegExp; head?: RegExp }>();

/** The unspecified title with its unspecified part open, and its head word when the title ends ", unspecified". */
function patternsOf(unspecified: string): { open: RegExp; head?: RegExp } {
  let out = patterns.get(unspecified);
  if (!out) {
    const u = unspecified.toLowerCase();
    const open = new RegExp(`^${u.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/\bunspecified\b/g, "[\\w' ,-]+?")}$`);
    const trailing = /^(.*\b([a-z]+)), unspecified$/.exec(u);
    out = { open, head: trailing === null ? undefined : new RegExp(`\\b${trailing[2]}\\b`) };
    if (patterns.size >= 5_000) patterns.clear();
    patterns.set(unspecified, out);
  }
  return out;
}

/** A code without its 7th-character extension (a letter: the encounter, the healing), and that letter. */
function baseOf(code: string): [string, string] {
  return code.length === 7 && /[A-Z]$/.test(code) ? [code.slice(0, 6), code[6]] : [code, ''];
}
