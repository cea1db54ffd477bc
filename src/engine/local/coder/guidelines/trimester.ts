import { type Candidates, dotted } from '../candidate.js';
import { statedWeeks } from './pregnancy.js';

const ORDINAL: Record<string, 1 | 2 | 3> = { first: 1, '1st': 1, second: 2, '2nd': 2, third: 3, '3rd': 3 };
const TRIMESTER_WORD = ['', 'first', 'second', 'third'];

/**
 * The trimester the note states (I.C.15.a.3): "second trimester" in words, or the weeks of
 * gestation, counted from the first day of the last menstrual period: first, less than 14 weeks
 * 0 days; second, 14 weeks 0 days to less than 28 weeks 0 days; third, 28 weeks 0 days until delivery.
 */
export function statedTrimester(cands: Candidates): 1 | 2 | 3 | undefined {
  for (const s of cands.ctx.sentences)
    for (let i = 1; i < s.lower.length; i++) if (s.lower[i] === 'trimester' && ORDINAL[s.lower[i - 1]]) return ORDINAL[s.lower[i - 1]];
  const weeks = statedWeeks(cands);
  if (weeks === undefined) return undefined;
  return weeks < 14 ? 1 : weeks < 28 ? 2 : 3;
}

/**
 * A trimester code for an Index code ending in "-" (O99.01-, O24.11-, O09.51-): the billable child
 * whose title names the stated trimester, or the "unspecified trimester" one; undefined when the
 * table holds neither.
 */
export function withTrimester(cands: Candidates, code: string, trimester: 1 | 2 | 3 | undefined): string | undefined {
  const { table } = cands.ctx;
  const base = code.replace(/[.-]/g, '');
  const own = table.indexOf(base);
  if (own !== undefined && table.billableAt(own)) return base;
  const want = trimester ? `${TRIMESTER_WORD[trimester]} trimester` : 'unspecified trimester';
  for (const row of table.descendantsOf(base))
    if (row.billable && row.code.replace('.', '').length === base.length + 1 && row.description.toLowerCase().includes(want))
      return row.code.replace('.', '');
  return undefined;
}

/**
 * A code read with its trimester unspecified ("Encounter for supervision of normal first pregnancy,
 * unspecified trimester") when the note states the weeks or the trimester: its sibling of that
 * trimester (I.C.15.a.3, "assign the unspecified trimester only when it cannot be determined").
 */
export function applyStatedTrimester(cands: Candidates): void {
  const { table } = cands.ctx;
  const open = cands.finals().filter((c) => /unspecified trimester/i.test(table.descriptionAt(c.index)));
  if (open.length === 0) return;
  const trimester = statedTrimester(cands);
  if (!trimester) return;
  for (const c of open) {
    const code = withTrimester(cands, c.code.slice(0, -1), trimester);
    if (!code || code === c.code) continue;
    const made = cands.assign(code, `${dotted(c.code)} of the trimester the note states (I.C.15.a.3)`, [c]);
    if (made) cands.discard(c, `Discarded: the note states the trimester; coded ${dotted(made.code)} (I.C.15.a.3).`);
  }
}
