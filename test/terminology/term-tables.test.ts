import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { SHIPPED_TABLES_FILE } from '../../src/terminology/shipped-release.js';
import { shippedTermTables, TermTables, type TermRows } from '../../src/terminology/term-tables.js';

const lines = gunzipSync(readFileSync(SHIPPED_TABLES_FILE)).toString('utf8').split('\n');
const rowOf = (t: TermRows, i: number) => [
  String(t.level[i]),
  t.titleOf(i),
  t.nemodOf(i),
  t.seeOf(i),
  t.seeAlsoOf(i),
  ...[0, 1, 2, 3, 4, 5].map((k) => t.cellOf(i, k)),
];

describe('the shipped FY2026 Table of Drugs and Chemicals, Neoplasm Table and External Cause Index', () => {
  it('records the sha256 of each official source file', () => {
    for (const file of [
      'icd10cm-drug-April-1-2026-XML.xml',
      'icd10cm-neoplasm-April-1-2026-XML.xml',
      'icd10cm-eindex-April-1-2026-XML.xml',
    ])
      expect(lines.some((l) => new RegExp(`^# ${file} sha256 [0-9a-f]{64}$`).test(l))).toBe(true);
  });

  it("reads every row as the compiled file states it, from the file and from another thread's parts", () => {
    const tables = shippedTermTables();
    const adopted = new TermTables(tables.parts());
    const at = { D: 0, M: 0, E: 0 } as Record<string, number>;
    const of = { D: tables.drugs, M: tables.neoplasms, E: tables.external } as Record<string, TermRows>;
    const other = { D: adopted.drugs, M: adopted.neoplasms, E: adopted.external } as Record<string, TermRows>;
    for (const line of lines) {
      const f = line.split('\t');
      if (!(f[0] in at)) continue;
      const i = at[f[0]]++;
      const got = rowOf(of[f[0]], i);
      if (got.join('\t') !== f.slice(1).join('\t')) expect(got).toEqual(f.slice(1));
      if (i % 97 === 0) expect(rowOf(other[f[0]], i)).toEqual(got);
    }
    expect([tables.drugs.size, tables.neoplasms.size, tables.external.size]).toEqual([at.D, at.M, at.E]);
    // 5,179 substances and their 2,251 subterms; the Neoplasm Table's one main term and 1,939 sites.
    expect(tables.drugs.size).toBe(5_179 + 2_251);
    expect(tables.neoplasms.size).toBe(1_940);
  });

  it('finds a substance by name and follows a brand name to the generic row', () => {
    const { drugs } = shippedTermTables();
    const [acetaminophen] = drugs.mainTerms('acetaminophen');
    expect([0, 1, 2, 3, 4, 5].map((k) => drugs.cellOf(acetaminophen, k))).toEqual([
      'T39.1X1',
      'T39.1X2',
      'T39.1X3',
      'T39.1X4',
      'T39.1X5',
      'T39.1X6',
    ]);
    const [aleve] = drugs.mainTerms('aleve');
    expect(drugs.cellOf(aleve, 0)).toBe('');
    expect(drugs.resolvePath(drugs.seeOf(aleve))).toBe(drugs.mainTerms('naproxen')[0]);
    const beverage = drugs.children(drugs.mainTerms('alcohol')[0]).find((c) => drugs.titleOf(c) === 'beverage')!;
    expect(drugs.cellOf(beverage, 0)).toBe('T51.0X1');
  });
});
