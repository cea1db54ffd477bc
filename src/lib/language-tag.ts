/** True for a well-formed BCP 47 language tag (`en`, `es-MX`, `fr`). */
export function isLanguageTag(tag: string): boolean {
  try {
    return Intl.getCanonicalLocales(tag).length === 1;
  } catch {
    return false;
  }
}
