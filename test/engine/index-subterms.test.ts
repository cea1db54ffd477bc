import { describe, expect, it } from 'vitest';
import { subtermsOf } from '../../src/engine/local/coder/guidelines/index-subterms.js';
import { shippedIndexTabular } from '../../src/terminology/index-tabular.js';

describe("a main term's coded subterms, read once per Index", () => {
  const it_ = shippedIndexTabular();

  it('answers each question on its own: the same path asked with another depth or filter reads other subterms', () => {
    const codes = (depth: number, keep: RegExp) => subtermsOf(it_, 'absence', depth, keep, 2).map((s) => s.code);
    const shallow = codes(1, /^Z89/);
    const deep = codes(3, /^Z89/);
    const z95 = codes(3, /^Z89\.4/);
    expect(deep.length).toBeGreaterThan(shallow.length);
    expect(z95.length).toBeGreaterThan(0);
    expect(z95.every((c) => c.startsWith('Z89.4'))).toBe(true);
    expect(deep).toEqual(expect.arrayContaining(z95));
    // Asked again, the first answer is the same (from the cache).
    expect(codes(1, /^Z89/)).toEqual(shallow);
  });
});
