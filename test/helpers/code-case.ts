import { expect } from 'vitest';

/** Whether final code `code` is what a case's `mustNot` entry forbids: that code, or any code under a `X-` prefix. */
export const forbidden = (code: string, rule: string) => (rule.endsWith('-') ? code.startsWith(rule.slice(0, -1)) : code === rule);

/** A case's codes: every `must` code among the finals, and no final code its `mustNot` forbids. */
export function expectCase(got: readonly string[], c: { note: string; must: readonly string[]; mustNot: readonly string[] }): void {
  for (const m of c.must) expect(got, `${c.note} -> [${got.join(', ')}]`).toContain(m);
  for (const g of got)
    expect(
      c.mustNot.some((r) => forbidden(g, r)),
      `${g} is forbidden in "${c.note}"`,
    ).toBe(false);
}
