import type { CodeTable } from '../../../terminology/code-table.js';
import { type Candidate, dotted, sentenceAt } from './candidate.js';
import type { NoteContext } from './candidate.js';

const MAX_QUOTE = 180;

/** The sentence holding a span, trimmed around it to at most MAX_QUOTE characters. */
export function quoteSentence(ctx: NoteContext, start: number, end: number): string {
  const s = sentenceAt(ctx, start, end);
  if (!s) return ctx.text.slice(start, end);
  let a = s.starts[0];
  let b = s.ends[s.ends.length - 1];
  if (b - a > MAX_QUOTE) {
    a = Math.max(a, start - 60);
    b = Math.min(b, Math.max(end, a + MAX_QUOTE));
    a = Math.max(s.starts[0], Math.min(a, b - MAX_QUOTE));
  }
  // Each run of white space as one space; a lone space before a non-space is left as it is (no
  // match, no new string: most of a note's runs are such spaces).
  const body = ctx.text
    .slice(a, b)
    .replace(/(?! (?!\s))\s+/g, ' ')
    .trim();
  return `${a > s.starts[0] ? '…' : ''}${body}${b < s.ends[s.ends.length - 1] ? '…' : ''}`;
}

/** The rule that keeps a code found in the note, as a clause. */
export function ruleOf(c: Candidate, table: CodeTable, text: string): string {
  const said = c.spans.length ? text.slice(c.spans[0].start, c.spans[0].end).replace(/\s+/g, ' ') : '';
  switch (c.origin) {
    case 'lexicon':
      return `the note states "${said}", a name of ${dotted(c.code)}`;
    case 'learned':
      return `the note states "${said}", a phrase coders assigned ${dotted(c.code)} to in the training documents`;
    case 'description':
      if (c.found?.mention.inclusion)
        return `the note states "${said}", an inclusion term of ${dotted(c.code)} "${table.descriptionAt(c.index)}" in the Tabular List (I.A.11)`;
      return `the note states the official title "${table.descriptionAt(c.index)}" as "${said}"`;
    case 'index':
      return `the Alphabetic Index leads from "${said}" (${c.found?.mention.indexPath ?? 'its main term'}) to ${dotted(c.code)}, verified in the Tabular List`;
    default:
      return c.rule;
  }
}

/** Full-sentence justification: the rule applied, then the evidence quoted. */
export function justify(c: Candidate, ctx: NoteContext): string {
  const quote = c.spans.length ? ` Evidence: "${quoteSentence(ctx, c.spans[0].start, c.spans[0].end)}"` : '';
  if (!c.final) return `${c.why ?? 'Discarded.'}${quote}`;
  const rule = c.rule || ruleOf(c, ctx.table, ctx.text);
  return `Coded because ${rule}.${quote}`;
}
