import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { splitSentences } from '../../src/engine/local/coder/sentence-split.js';

describe('sentence words and their offsets', () => {
  it('every word is the exact text at its UTF-16 offsets, in order, whatever the input', () => {
    const piece = fc.oneof(
      fc.constantFrom(
        'Known HTN. ',
        'dolor ',
        '👵',
        'ñ',
        'e\u0301',
        '\n',
        '\r\n',
        '  ',
        '.',
        ', ',
        "Crohn's ",
        'non-small ',
        'N/V ',
        'x'.repeat(70),
        'a+b/c==',
      ),
      fc.string({ maxLength: 8 }),
      fc.string({ unit: 'grapheme', maxLength: 8 }),
    );
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 60 }), (parts) => {
        const text = parts.join('');
        let last = -1;
        for (const s of splitSentences(text)) {
          s.words.forEach((w, i) => {
            expect(text.slice(s.starts[i], s.ends[i])).toBe(w);
            expect(s.lower[i]).toBe(w.toLowerCase());
            expect(s.starts[i]).toBeGreaterThan(last);
            last = s.starts[i];
            expect(w.length).toBeLessThanOrEqual(60);
          });
        }
      }),
      { numRuns: 300 },
    );
  });
});

describe('sentence splitting', () => {
  // The reading the splitter implements character by character, as regular expressions (one line, no over-long run).
  const SENTENCE_END = /(?<=[.!?;])\s+(?=[\p{Lu}\p{N}(])/gu;
  const TOKEN = /[\p{L}\p{N}]+(?:['’.\-/][\p{L}\p{N}]+)*|[^\s\p{L}\p{N}]/gu;
  const byExpressions = (line: string) =>
    line
      .split(SENTENCE_END)
      .map((s) => s.match(TOKEN) ?? [])
      .filter((words) => words.length > 0);

  it('reads sentences and tokens as the regular expressions do, Unicode letters, digits and spaces included', () => {
    const piece = fc.oneof(
      fc.constantFrom(
        'Dr. smith',
        '. Pain',
        '; 2',
        '! (',
        '? É',
        '.\u00a0Ö',
        '.\u2003Ⅳ',
        '\ufeff',
        '\u202f',
        '𝐀𝐁',
        '😀',
        '\ud800',
        '\udc00',
        '٣',
        '²',
        'ǅ',
        'Crohn’s',
        'e.g.',
        'N/V',
        '-',
        ' ',
      ),
      fc.string({ maxLength: 6 }),
    );
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 40 }), (parts) => {
        const line = parts.join('').replace(/[\r\n\u2028\u2029]/g, ' ');
        fc.pre(!/\S{61}/u.test(line));
        expect(splitSentences(line).map((s) => s.words)).toEqual(byExpressions(line));
      }),
      { numRuns: 500 },
    );
  });
});
