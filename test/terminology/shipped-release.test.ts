import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { codifyText } from '../../src/engine/local/coder/index.js';
import { parseCodeLine } from '../../src/terminology/icd10-file.js';
import { IndexTabular, shippedIndexTabular } from '../../src/terminology/index-tabular.js';
import { SHIPPED_CODES_FILE, SHIPPED_INDEX_TABULAR_FILE, shippedCodeTable, shippedRow } from '../../src/terminology/shipped-release.js';

// The shipped release as the engine workers hold it, compactly (one string of titles and offsets,
// no object per term: issue 28, the service's RSS), checked against a plain reading of the files.
describe('the shipped ICD-10-CM release', () => {
  const table = shippedCodeTable();

  it('holds every FY2026 code of the file with its official title, in file order', () => {
    const rows = gunzipSync(readFileSync(SHIPPED_CODES_FILE))
      .toString('latin1')
      .split('\n')
      .map((line) => parseCodeLine(line))
      .filter((r) => r !== null);
    expect(rows.length).toBe(74_719);
    expect(table.size).toBe(rows.length);
    rows.forEach((r, i) => {
      if (table.codeAt(i) !== r.code || table.descriptionAt(i) !== r.description || !table.billableAt(i)) {
        expect({ code: table.codeAt(i), description: table.descriptionAt(i) }).toEqual(r);
      }
      if (table.indexOf(r.code) !== i) expect(table.indexOf(r.code)).toBe(i);
    });
    expect(table.get('M25.461')).toEqual({ code: 'M25461', description: 'Effusion, right knee', billable: true });
    expect(table.has('M25.46')).toBe(false);
    expect(table.descendantsOf('S83.241').map((r) => r.code)).toEqual(['S83241A', 'S83241D', 'S83241S']);
    expect(table.childrenOf('M25.46').map((r) => r.code)).toEqual(['M25461', 'M25462', 'M25469']);
    // Codes are verified by row (from the table when the thread holds it, else from the file's lines): the same titles.
    for (const code of ['A000', 'M25461', 'Z880', 'S83241A', rows[rows.length - 1].code]) expect(shippedRow(code)).toEqual(table.get(code));
    expect(shippedRow('M2546')).toBeUndefined();
  });

  it('reads every Index term, Tabular note, 7th character and code as the compiled file states them', () => {
    const it23 = shippedIndexTabular();
    const lines = gunzipSync(readFileSync(SHIPPED_INDEX_TABULAR_FILE)).toString('utf8').split('\n');
    let term = 0;
    let noteLines = 0;
    const notes = new Map<string, string[][]>();
    for (const line of lines) {
      const f = line.split('\t');
      // A note the XML sets as a term ("Failure, Note: heart failure stages A, B, C, and D ...") is
      // not a term: its subterms belong to the term before it, as in the printed Index.
      if (f[0] === 'I' && f[2]?.startsWith('Note:')) noteLines++;
      else if (f[0] === 'I') {
        const got = [it23.titleOf(term), it23.nemodOf(term), it23.codeOf(term), it23.seeOf(term), it23.seeAlsoOf(term), it23.manifOf(term)];
        // the level, then six fields (title, modifiers, code, see, see also, manifestation codes; a missing last one reads '')
        const want = [...f.slice(2), '', ''].slice(0, 6);
        if (it23.level[term] !== Number(f[1]) || got.join('\t') !== want.join('\t')) {
          expect([it23.level[term], ...got]).toEqual([Number(f[1]), ...want]);
        }
        term++;
      } else if (f[0] === 'N') notes.set(f[1], [...(notes.get(f[1]) ?? []), f.slice(2)]);
      else if (f[0] === '7') expect(it23.seventhOf(f[1])).toEqual(new Map(f[2].split('|').map((p) => [p.slice(0, 1), p.slice(2)])));
      else if (f[0] === 'C') for (const c of f[1].split(' ')) if (!it23.inTabular(c)) expect(c).toBe('in the Tabular');
    }
    expect(term).toBe(it23.size);
    expect(noteLines).toBe(4);
    expect(it23.size).toBe(80_114);
    for (const [code, list] of notes) {
      expect(it23.notes(code)).toEqual(list.map(([kind, text, refs = '']) => ({ kind, text, refs: refs ? refs.split(' ') : [] })));
    }
    expect(notes.size).toBeGreaterThan(9_000);
    const [effusion] = it23.mainTerms('effusion');
    const knee = it23.resolvePath('Effusion, joint, knee')!;
    expect(it23.codeOf(knee)).toBe('M25.46-');
    expect(knee).toBeGreaterThan(effusion);
    expect(knee).toBeLessThan(it23.end[effusion]);
    expect(it23.inTabular('E6681')).toBe(false);
    expect(it23.notes('Z99.99')).toEqual([]);
    // As another thread adopts it (the same shared memory): the same terms, notes and codes.
    const adopted = new IndexTabular(it23.parts());
    expect(adopted.resolvePath('Effusion, joint, knee')).toBe(knee);
    expect(adopted.notes('M25.4')).toEqual(it23.notes('M25.4'));
    expect(adopted.seventhOf('S83.241A')).toEqual(it23.seventhOf('S83.241A'));
    expect(adopted.inTabular('M25461')).toBe(true);
  });

  it('codes from the shipped data a code outside any starter list', () => {
    const finals = codifyText(table, 'Right knee effusion.', 'balanced').final_code_assessments.map((a) => a.code);
    expect(finals).toContain('M25.461');
  });
});
