import { describe, expect, it } from 'vitest';
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
});
