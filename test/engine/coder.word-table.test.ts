import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { codifyText } from '../../src/engine/local/coder/index.js';
import { splitSentences } from '../../src/engine/local/coder/sentence-split.js';
import { CodeTable } from '../../src/terminology/code-table.js';
import { starterRows } from '../../src/terminology/starter-catalog.js';
import { stemWords } from '../../src/terminology/text-normalize.js';

// The splitter keeps each word once per thread (word-interner.ts) with its lower case and stems:
// what a sentence carries must be what its own words give, whatever notes came before.
describe("the thread's word table", () => {
  it("a sentence's words, lower case and stems are its own text's, after any notes", () => {
    const piece = fc.oneof(
      fc.constantFrom('Type ii diabetes. ', 'grade IV ', 'Stage iii, ', 'HTN ', 'htn ', 'Crohn’s ', 'tumour ', 'cancers ', '. '),
      fc.stringMatching(/^[A-Za-z]{1,14}$/),
      fc.string({ maxLength: 6 }),
    );
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 40 }), (parts) => {
        const text = parts.join(' ');
        for (const s of splitSentences(text)) {
          s.words.forEach((w, i) => {
            expect(w).toBe(text.slice(s.starts[i], s.ends[i]));
            expect(s.lower[i]).toBe(w.toLowerCase());
          });
          expect(s.stems).toEqual(stemWords(s.words));
        }
      }),
      { numRuns: 300 },
    );
  });

  it('a note of more distinct words than the table holds is read whole, and the next note codes as before', () => {
    const table = new CodeTable(starterRows());
    const visit = 'Assessment: type 2 diabetes mellitus without complications. Essential hypertension. Former smoker, quit in 2015.';
    const before = codifyText(table, visit, 'balanced');
    // 150,000 distinct words: past the table's bound and past its first slots (it grows mid-note).
    const flood = Array.from({ length: 150_000 }, (_, i) => `w${i.toString(36)}x`).join(' ');
    const sentences = splitSentences(flood);
    const words = sentences.flatMap((s) => s.words);
    expect(words).toHaveLength(150_000);
    expect(words[0]).toBe('w0x');
    expect(words[149_999]).toBe(`w${(149_999).toString(36)}x`);
    expect(new Set(sentences.flatMap((s) => s.ids)).size).toBe(150_000);
    // The next note starts the table again: its words, stems and codes are as on a fresh table.
    const after = codifyText(table, visit, 'balanced');
    expect(after).toEqual(before);
    expect(before.final_code_assessments.map((a) => a.code)).toContain('E11.9');
  });
});
