import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  isValidCodeFormat,
  parseCategoriesCsv,
  parseCodeLine,
  readCodeDescriptions,
  toDotted,
  toUndotted,
} from '../../src/terminology/icd10-file.js';

describe('icd10 code descriptions file', () => {
  it('parses a fixed-width line with CRLF ending', () => {
    expect(parseCodeLine('E119    Type 2 diabetes mellitus without complications\r')).toEqual({
      code: 'E119',
      description: 'Type 2 diabetes mellitus without complications',
    });
    expect(parseCodeLine('S72001A Fracture of unspecified part of neck of right femur')?.code).toBe('S72001A');
    expect(parseCodeLine('   \r')).toBeNull();
  });

  it('refuses a malformed code', () => {
    expect(() => parseCodeLine('1234    Not a code', 7)).toThrow(/line 7/);
  });

  it('streams rows from a file', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'icd10-'));
    const path = join(dir, 'codes.txt');
    await writeFile(
      path,
      'A000    Cholera due to Vibrio cholerae 01, biovar cholerae\r\nI10     Essential (primary) hypertension\r\nQA00101 Some FY2026 code\r\n',
    );
    const rows = [];
    for await (const r of readCodeDescriptions(path)) rows.push(r);
    expect(rows.map((r) => r.code)).toEqual(['A000', 'I10', 'QA00101']);
    expect(rows[1].description).toBe('Essential (primary) hypertension');
  });

  it('converts between dotted and undotted forms', () => {
    expect(toDotted('E119')).toBe('E11.9');
    expect(toDotted('e11.9')).toBe('E11.9');
    expect(toDotted('I10')).toBe('I10');
    expect(toDotted('S72001A')).toBe('S72.001A');
    expect(toUndotted('e11.9')).toBe('E119');
  });

  it('validates code formats, including FY2026 QA0 and C4A-style categories', () => {
    for (const ok of ['E119', 'E11.9', 'QA00101', 'C4A0', 'M1A00X0', 'I10']) expect(isValidCodeFormat(ok)).toBe(true);
    for (const bad of ['', '119', 'E1', 'EEE1', 'E11.90000']) expect(isValidCodeFormat(bad)).toBe(false);
  });
});

describe('icd10 categories CSV', () => {
  it('parses quoted fields', () => {
    const rows = parseCategoriesCsv(
      'ICD10-CM-CODE,description,section,chapter\r\nA00,Cholera,A00-A09,1\r\nA09,"Infectious gastroenteritis and colitis, unspecified",A00-A09,1\r\n',
    );
    expect(rows).toEqual([
      { code: 'A00', description: 'Cholera', section: 'A00-A09', chapter: '1' },
      { code: 'A09', description: 'Infectious gastroenteritis and colitis, unspecified', section: 'A00-A09', chapter: '1' },
    ]);
  });

  it('refuses an unexpected header', () => {
    expect(() => parseCategoriesCsv('code,desc\nA00,Cholera')).toThrow(/header/);
  });
});
