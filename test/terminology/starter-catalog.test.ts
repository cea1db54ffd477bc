import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { readCodeDescriptions, toUndotted } from '../../src/terminology/icd10-file.js';
import { STARTER_CATALOG, starterRows, synonymLexicon } from '../../src/terminology/starter-catalog.js';

const CODES_FILE = '../shared/data/icd10cm/icd10cm-codes-2026.txt';

describe('starter catalog', () => {
  it('has a few hundred distinct codes, each with synonyms', () => {
    const codes = STARTER_CATALOG.map(([c]) => c);
    expect(codes.length).toBeGreaterThanOrEqual(150);
    expect(new Set(codes).size).toBe(codes.length);
    for (const [, , synonyms] of STARTER_CATALOG) expect(synonyms.length).toBeGreaterThan(0);
    expect(starterRows().every((r) => r.billable)).toBe(true);
  });

  it('maps everyday words and abbreviations', () => {
    const lex = synonymLexicon();
    const codeOf = (p: string) => lex.find((e) => e.phrase === p)?.code;
    expect(codeOf('high blood pressure')).toBe('I10');
    expect(codeOf('HTN')).toBe('I10');
    expect(codeOf('T2DM')).toBe('E11.9');
    expect(codeOf('CHF')).toBe('I50.9');
    expect(codeOf('COPD')).toBe('J44.9');
    expect(codeOf('AFib')).toBe('I48.91');
    expect(codeOf('UTI')).toBe('N39.0');
    expect(codeOf('GERD')).toBe('K21.9');
    expect(lex.find((e) => e.phrase === 'HTN')?.caseSensitive).toBe(true);
  });

  it.runIf(existsSync(CODES_FILE))('uses only billable FY2026 codes with their exact official titles', async () => {
    const official = new Map<string, string>();
    for await (const r of readCodeDescriptions(CODES_FILE)) official.set(r.code, r.description);
    expect(official.size).toBe(74_719);
    for (const [code, title] of STARTER_CATALOG) {
      expect(official.get(toUndotted(code)), code).toBe(title);
    }
  });
});
