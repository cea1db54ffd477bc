import { assertWords } from '../assertions.js';
import { type Candidate, type Candidates, dotted, sentenceAt } from '../candidate.js';
import type { Sentence } from '../sentence-split.js';

// The words a remission title may add to its condition ("in full remission", "in early remission").
const KINDS = ['full', 'partial', 'early', 'sustained'];
// Clauses of a title that say what the remission child restates or leaves open.
const OPEN_CLAUSE = /^(unspecified|uncomplicated|in (\w+ )?remission|in relapse|not having achieved remission|unspecified site)$/;

/** A title without the clauses that say whether (and how) the condition is in remission. */
function baseOf(title: string): string {
  return title
    .toLowerCase()
    .replace(/\s+(not having achieved remission|in (\w+ )?remission|in relapse)$/, '')
    .split(',')
    .map((c) => c.trim())
    .filter((c) => c !== '' && !OPEN_CLAUSE.test(c))
    .join(', ');
}

/**
 * Remission stated of a condition (F32.5, F33.4-, F10.21, C92.01, C81.9A), in the condition's
 * sentence ("AML, in remission") or in one of its own after it ("Major depression, recurrent.
 * Now in full remission."): the condition is coded to its Tabular child "in remission", with the
 * kind stated (full, partial, early, sustained). A sentence whose own condition precedes the word
 * keeps the remission to it.
 */
export function applyRemission(cands: Candidates): void {
  const { ctx } = cands;
  if (!/remission/i.test(ctx.text)) return;
  const finals = cands.statedIn('C8', 'C9', 'F');
  if (finals.length === 0) return;
  const bySentence = new Map<Sentence, Candidate[]>();
  for (const c of finals) {
    const s = c.spans.length ? sentenceAt(ctx, c.spans[0].start, c.spans[0].end) : undefined;
    if (s) bySentence.set(s, [...(bySentence.get(s) ?? []), c]);
  }
  ctx.sentences.forEach((s, si) => {
    const at = s.lower.indexOf('remission');
    if (at < 0 || assertWords(s.words, s.lower)[at] !== 'present') return;
    const before = s.lower.slice(Math.max(0, at - 4), at);
    if (before.includes('not') || before.includes('no') || before.includes('never')) return;
    const kinds = new Set(before.filter((w) => KINDS.includes(w)));
    let of = (bySentence.get(s) ?? []).filter((c) => c.spans[0].start < s.starts[at]);
    // A sentence of its own: the remission is of the condition(s) of the sentence before it.
    for (let p = si - 1; of.length === 0 && p >= Math.max(0, si - 2); p--) of = bySentence.get(ctx.sentences[p]) ?? [];
    for (const c of of) toRemission(cands, c, kinds, s.words.slice(Math.max(0, at - 3), at + 1).join(' '));
  });
}

function toRemission(cands: Candidates, c: Candidate, kinds: ReadonlySet<string>, said: string): void {
  const { table } = cands.ctx;
  if (!c.final) return;
  const title = table.descriptionAt(c.index);
  if (/\bin (\w+ )?remission\b/i.test(title)) return;
  const base = baseOf(title);
  let best: { code: string; score: number } | undefined;
  for (const r of table.descendantsOf(c.code.slice(0, c.code.length - 1))) {
    const t = r.description.toLowerCase();
    if (!r.billable || r.code === c.code || !/\bin (\w+ )?remission\b/.test(t) || /not having achieved/.test(t)) continue;
    if (baseOf(r.description) !== base) continue;
    // A kind the title states and the note does not counts against it; "full" is how the Index
    // reads a remission it does not qualify ("in remission (full)").
    let score = 0;
    for (const k of KINDS) if (t.includes(`${k} remission`)) score += kinds.has(k) ? 1 : k === 'full' ? 0 : -1;
    if (!best || score > best.score) best = { code: r.code, score };
  }
  if (!best) return;
  const made = cands.assign(best.code, `the note states the condition is in remission ("${said}"), so its "in remission" child is coded`, [
    c,
  ]);
  if (!made) return;
  cands.discard(c, `Discarded: the note states remission ("${said}"); coded ${dotted(best.code)} instead.`);
  // "Leukemia, in remission" read alone (C95.91, C94.81) from the words that named the kind.
  for (const o of cands.finalsIn(c.code[0])) {
    const t = table.descriptionAt(o.index);
    if (o === made || !/remission/i.test(t) || !/\b(unspecified|other specified)\b/i.test(t) || !overlaps(o, c)) continue;
    cands.discard(o, `Discarded: less specific than ${dotted(best.code)}, stated in the same words.`);
  }
}

const overlaps = (a: Candidate, b: Candidate) => a.spans.some((x) => b.spans.some((y) => x.start < y.end && y.start < x.end));
