import { expect } from 'vitest';

/** Whether final code `code` is what a case's `mustNot` entry forbids: that code, or any code under a `X-` prefix. */
export const forbidden = (code: string, rule: string) => (rule.endsWith('-') ? code.startsWith(rule.slice(0, -1)) : code === rule);

/**
 * A case's codes: every `must` code among the finals, no final code its `mustNot` forbids, each
 * `before` pair in that order (I.A.13 etiology first), and `first` listed first when given.
 */
export function expectCase(
  got: readonly string[],
  c: { note: string; must: readonly string[]; mustNot: readonly string[]; before?: readonly (readonly [string, string])[]; first?: string },
): void {
  for (const m of c.must) expect(got, `${c.note} -> [${got.join(', ')}]`).toContain(m);
  for (const g of got)
    expect(
      c.mustNot.some((r) => forbidden(g, r)),
      `${g} is forbidden in "${c.note}"`,
    ).toBe(false);
  for (const [a, b] of c.before ?? []) expect(got.indexOf(a), `${a} before ${b} in [${got.join(', ')}]`).toBeLessThan(got.indexOf(b));
  if (c.first) expect(got[0], `${c.first} first in [${got.join(', ')}]`).toBe(c.first);
}
