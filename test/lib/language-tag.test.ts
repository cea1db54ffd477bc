import { describe, expect, it } from 'vitest';
import { isLanguageTag } from '../../src/lib/language-tag.js';

describe('isLanguageTag', () => {
  it('accepts well-formed BCP 47 tags and refuses the rest', () => {
    for (const tag of ['en', 'es-MX', 'fr', 'zh-Hant-TW']) expect(isLanguageTag(tag)).toBe(true);
    for (const tag of ['', 'english!', 'en_US_', '12']) expect(isLanguageTag(tag)).toBe(false);
  });
});
