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
