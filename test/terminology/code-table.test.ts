import { describe, expect, it } from 'vitest';
import { fromPayload, toPayload } from '../../src/engine/isolated/code-table-payload.js';
import { CodeTable } from '../../src/terminology/code-table.js';
import { starterRows } from '../../src/terminology/starter-catalog.js';

const rows = [
  { code: 'E11', description: 'Type 2 diabetes mellitus', billable: false },
  { code: 'E11.9', description: 'Type 2 diabetes mellitus without complications', billable: true },
  { code: 'E1121', description: 'Type 2 diabetes mellitus with diabetic nephropathy', billable: true },
  { code: 'E11.2', description: 'Type 2 diabetes mellitus with kidney complications', billable: false },
  { code: 'I10', description: 'Essential (primary) hypertension', billable: true },
];

describe('CodeTable', () => {
  const table = new CodeTable(rows);

  it('looks codes up dotted or undotted', () => {
    expect(table.size).toBe(5);
    expect(table.get('E119')?.description).toBe('Type 2 diabetes mellitus without complications');
    expect(table.get('e11.9')?.code).toBe('E119');
    expect(table.has('E11.21')).toBe(true);
    expect(table.has('E11.22')).toBe(false);
  });

  it('knows which codes are billable', () => {
    expect(table.isBillable('E11.9')).toBe(true);
    expect(table.isBillable('E11')).toBe(false);
    expect(table.isBillable('Z99.9')).toBe(false);
  });

  it('lists children and descendants of a header', () => {
    expect(table.childrenOf('E11').map((r) => r.code)).toEqual(['E112', 'E119']);
    expect(table.descendantsOf('E11').map((r) => r.code)).toEqual(['E112', 'E1121', 'E119']);
    expect(table.childrenOf('I10')).toEqual([]);
  });

  it('indexes title stems with weights', () => {
    const idx = table.index;
    const nephro = idx.stemId('nephropathi');
    expect(nephro).toBeDefined();
    const e1121 = table.indexOf('E11.21')!;
    expect(Array.from(idx.requiredOf(e1121))).toContain(nephro);
    // "without complications" is free: the note need not state it.
    expect(idx.stemId('complic')).toBeDefined();
    expect(Array.from(idx.requiredOf(table.indexOf('E11.9')!))).not.toContain(idx.stemId('complic'));
  });

  it('builds from the starter catalog', () => {
    const starter = new CodeTable(starterRows());
    expect(starter.size).toBe(starterRows().length);
    expect(starter.get('I10')?.description).toBe('Essential (primary) hypertension');
  });

  it('keeps a code listed twice once: its first title, billable when either row is', () => {
    const twice = new CodeTable([
      { code: 'E11', description: 'Type 2 diabetes mellitus', billable: false },
      { code: 'I10', description: 'Essential (primary) hypertension', billable: true },
      { code: 'E11', description: 'Type 2 diabetes mellitus (again)', billable: true },
      { code: 'e11', description: 'Type 2 diabetes mellitus (thrice)', billable: false },
    ]);
    expect(twice.size).toBe(2);
    expect(twice.get('E11')).toEqual({ code: 'E11', description: 'Type 2 diabetes mellitus', billable: true });
    expect(twice.codeAt(1)).toBe('I10');
  });

  it('keeps titles beyond one byte a character whole, with a duplicate dropped and size hints that fall short', () => {
    const wide = new CodeTable([
      { code: 'T50', description: 'Poisoning \u2014 drugs', billable: false },
      { code: 'A00', description: 'Cholera', billable: true },
      { code: 'T50', description: 'Poisoning (again) \u{1F40D}', billable: true },
      ...Array.from({ length: 2_000 }, (_, i) => ({
        code: `Z${String(i).padStart(4, '0')}`,
        description: `Title ${i} \u00e9`,
        billable: i % 2 === 0,
      })),
    ]);
    expect(wide.size).toBe(2_002);
    expect(wide.get('T50')).toEqual({ code: 'T50', description: 'Poisoning \u2014 drugs', billable: true });
    expect(wide.row(1)).toEqual({ code: 'A00', description: 'Cholera', billable: true });
    expect(wide.get('Z1999')).toEqual({ code: 'Z1999', description: 'Title 1999 \u00e9', billable: false });
  });

  it('finds a code of another shape by its name (never in a valid table, but never lost)', () => {
    const odd = new CodeTable([...rows, { code: 'E11-X', description: 'Not a code', billable: false }]);
    expect(odd.get('E11-X')?.description).toBe('Not a code');
    expect(odd.descendantsOf('E11').map((r) => r.code)).toEqual(['E11-X', 'E112', 'E1121', 'E119']);
    expect(odd.get('E11.9')?.description).toBe('Type 2 diabetes mellitus without complications');
  });

  it('posts to an engine worker as columns and is rebuilt row for row', () => {
    const posted = structuredClone(toPayload(table));
    const copy = fromPayload(posted);
    expect(copy.size).toBe(table.size);
    for (let i = 0; i < table.size; i++) expect(copy.row(i)).toEqual(table.row(i));
    expect(copy.descendantsOf('E11').map((r) => r.code)).toEqual(['E112', 'E1121', 'E119']);
  });
});
