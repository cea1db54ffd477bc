import type { CodeAssessment } from '../../engine.js';
import type { CodeTable } from '../../../terminology/code-table.js';
import type { Assertion } from './context.js';
import type { Found } from './select.js';

const MAX_QUOTE = 160;

/** The words of the evidence, with a little context, as a quotation from the note. */
export function quote(words: readonly string[], start: number, end: number): string {
  const from = Math.max(0, start - 3);
  const to = Math.min(words.length - 1, end + 3);
  let q = words
    .slice(from, to + 1)
    .join(' ')
    .replace(/\s+([,.;:)%])/g, '$1')
    .replace(/\(\s+/g, '(');
  if (q.length > MAX_QUOTE) q = `${q.slice(0, MAX_QUOTE - 1)}…`;
  return `"${q}"`;
}

/** 0-100: lexicon synonyms are strong; title matches by how much of the title is stated. */
export function confidenceOf(f: Found, table: CodeTable): number {
  const m = f.mention;
  let c = m.source === 'lexicon' ? 100 * m.score : 45 + 50 * m.score;
  const title = table.descriptionAt(m.code);
  // "Other ..." residual codes rarely fit a title match well.
  if (m.source === 'description' && /^other\b/i.test(title)) c -= 20;
  return Math.max(0, Math.min(100, Math.round(c)));
}

const REASONS: Record<Exclude<Assertion, 'present'>, string> = {
  negated: 'Discarded: negated in the note',
  family: 'Discarded: family history, not the patient',
  historical: 'Discarded: historical or resolved',
  hypothetical: 'Discarded: hypothetical, suspected or rule-out',
};

export function reasonFor(assertion: Assertion): string | undefined {
  return assertion === 'present' ? undefined : REASONS[assertion];
}

export function toAssessment(table: CodeTable, code: number, justification: string, confidence: number): CodeAssessment {
  return {
    code: table.dottedAt(code),
    description: table.descriptionAt(code),
    justification,
    confidence_percent: confidence,
  };
}
