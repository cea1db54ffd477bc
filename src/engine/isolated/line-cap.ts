/**
 * The longest line the local engine is given. ACI-Bench's longest transcript line is 3,128
 * characters and CodiEsp's 364: real text never reaches it. Past it a line is broken, so that
 * no per-line pattern ever sees more than this, whatever its cost per character.
 */
export const MAX_LINE_CHARS = 4_096;

const isSpace = (c: number) => c === 0x20 || c === 0x09 || c === 0x0b || c === 0x0c || c === 0xa0;

/**
 * Breaks every line longer than `max` into lines of at most `max` characters. The text keeps its
 * length (offsets into it stay valid): a line is broken at its last space within the limit, which
 * becomes the line break; a run without spaces (no word is that long) has one of its characters
 * replaced by the line break (a surrogate pair: both halves). Text without such lines is returned as is.
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
    // The line reaches `max` characters at i: break it at a space in the second half of the
    // window (every line then advances by max/2 at least: linear time), else at i.
    out ??= text.split('');
    const floor = lineStart + Math.floor(max / 2);
    let cut = i;
    while (cut > floor && !isSpace(text.charCodeAt(cut))) cut--;
    if (!isSpace(text.charCodeAt(cut))) {
      cut = i;
      const unit = text.charCodeAt(cut);
      // Never half of a surrogate pair: its other half becomes a space beside the break.
      if (unit >= 0xdc00 && unit <= 0xdfff && cut - 1 > lineStart) out[cut - 1] = ' ';
      else if (unit >= 0xd800 && unit <= 0xdbff && cut + 1 < text.length) out[cut + 1] = ' ';
    }
    out[cut] = '\n';
    lineStart = cut + 1;
    i = cut;
  }
  return out ? out.join('') : text;
}
