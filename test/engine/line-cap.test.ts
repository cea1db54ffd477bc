import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { capLineLengths, MAX_LINE_CHARS } from '../../src/engine/isolated/line-cap.js';

const longest = (text: string) => Math.max(...text.split(/\r?\n|\r/).map((l) => l.length));

describe('capLineLengths', () => {
  it('leaves text with no line over the limit as it is', () => {
    const text = '[doctor] hello\n[patient] hi\r\n' + 'x'.repeat(MAX_LINE_CHARS);
    expect(capLineLengths(text)).toBe(text);
  });

  it('breaks long lines at a space, keeping the length (offsets stay valid)', () => {
    const words = 'hypertension '.repeat(1_000);
    const out = capLineLengths(words);
    expect(out.length).toBe(words.length);
    expect(longest(out)).toBeLessThanOrEqual(MAX_LINE_CHARS);
    expect(out.replace(/\n/g, ' ')).toBe(words);
  });

  it('breaks a 50 KB token without splitting a surrogate pair', () => {
    for (const text of ['a'.repeat(50_000), '🩺'.repeat(25_000), 'a' + '🩺'.repeat(25_000)]) {
      const out = capLineLengths(text, 1_000);
      expect(out.length).toBe(text.length);
      expect(longest(out)).toBeLessThanOrEqual(1_000);
      // No lone surrogate: a split pair would be one.
      expect(out).not.toMatch(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/);
    }
  });

  it('holds for any text: same length, no line over the limit, only line breaks added', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', maxLength: 600 }), fc.integer({ min: 2, max: 50 }), (text, max) => {
        const out = capLineLengths(text, max);
        expect(out.length).toBe(text.length);
        expect(longest(out)).toBeLessThanOrEqual(max);
        for (let i = 0; i < text.length; i++) if (out[i] !== text[i]) expect(out[i] === '\n' || out[i] === ' ').toBe(true);
      }),
    );
  });
});
