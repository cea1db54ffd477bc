/**
 * The longest line the local engine is given. ACI-Bench's longest transcript line is 3,128
 * characters and CodiEsp's 364: real text never reaches it. Past it a line is broken, so that
 * no per-line pattern ever sees more than this, whatever its cost per character.
 */
export const MAX_LINE_CHARS = 4_096;

const isSpace = (c: number) => c === 0x20 || c === 0x09 || c === 0x0b || c === 0x0c || c === 0xa0;
const isSurrogate = (c: number) => c >= 0xd800 && c <= 0xdfff;

/**
 * Breaks every line longer than `max` into lines of at most `max` characters. The text keeps its
 * length (offsets into it stay valid): a line is broken at its last space within the limit, which
 * becomes the line break; a run without spaces (no word is that long) has one of its characters
 * replaced by the line break, never half of a surrogate pair. Text without such lines is returned as is.
 */
export function capLineLengths(text: string, max = MAX_LINE_CHARS): string {
  let out: string[] | undefined;
  let lineStart = 0;
  for (let i = 0; i <= text.length; i++) {
    const c = i < text.length ? text.charCodeAt(i) : 0x0a;
    if (c === 0x0a || c === 0x0d) {
      lineStart = i + 1;
      continue;
    }
    if (i - lineStart < max) continue;
    // The line reaches `max` characters at i: break it within [lineStart + 1, i].
    out ??= text.split('');
    let cut = i;
    while (cut > lineStart && !isSpace(text.charCodeAt(cut))) cut--;
    if (cut === lineStart) {
      cut = i;
      while (cut > lineStart + 1 && isSurrogate(text.charCodeAt(cut))) cut--;
      const unit = text.charCodeAt(cut);
      // Only surrogates on the line: the whole pair gives way (a space beside the break).
      if (unit >= 0xdc00 && unit <= 0xdfff) out[cut - 1] = ' ';
      else if (unit >= 0xd800 && unit <= 0xdbff) out[cut + 1] = ' ';
    }
    out[cut] = '\n';
    lineStart = cut + 1;
    i = cut;
  }
  return out ? out.join('') : text;
}
