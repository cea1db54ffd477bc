/** Longest piece of text handed to the sentence splitter at once. */
export const MAX_CHUNK = 2_000;
/** Longer runs without whitespace are not words (base64, hashes, keyboard mashing): dropped. */
export const MAX_TOKEN = 60;

/** A piece of the note: `text.slice(start, end)`, so offsets found in it map back to the note. */
export interface Chunk {
  start: number;
  end: number;
}

/**
 * The non-blank lines of a note, each cut into pieces of at most MAX_CHUNK characters: at
 * sentence punctuation when there is one, else at the last whitespace. Pieces are ranges of the
 * original text so that evidence offsets stay exact. Linear in the length of the text.
 */
export function boundedRanges(text: string): Chunk[] {
  const out: Chunk[] = [];
  const LINE = /[^\r\n]+/g;
  for (const m of text.matchAll(LINE)) {
    let start = m.index;
    const end = start + m[0].length;
    while (end - start > MAX_CHUNK) {
      const cut = start + cutPoint(text.slice(start, Math.min(end, start + MAX_CHUNK + 1)));
      if (/\S/.test(text.slice(start, cut))) out.push({ start, end: cut });
      start = cut;
    }
    if (/\S/.test(text.slice(start, end))) out.push({ start, end });
  }
  return out;
}

const LONG_TOKEN = new RegExp(`\\S{${MAX_TOKEN + 1},}`, 'g');

/** The chunks as strings, over-long tokens blanked out (what the splitter reads). */
export function boundedChunks(text: string): string[] {
  return boundedRanges(text)
    .map((c) => {
      const s = text.slice(c.start, c.end);
      return s.length > MAX_TOKEN ? s.replace(LONG_TOKEN, ' ') : s;
    })
    .filter((s) => s.trim() !== '');
}

/** Where to cut a text longer than MAX_CHUNK: after the last sentence end, else the last space. */
function cutPoint(text: string): number {
  const window = text.slice(0, MAX_CHUNK);
  // Sentence ends only in the second half, so pieces do not get tiny.
  for (let i = window.length - 1; i >= MAX_CHUNK / 2; i--) {
    const c = window.charCodeAt(i);
    // '.', '!', '?', ';' followed by whitespace
    if ((c === 46 || c === 33 || c === 63 || c === 59) && i + 1 < text.length && /\s/.test(text[i + 1])) return i + 1;
  }
  const space = window.search(/\s\S*$/);
  return space > 0 ? space + 1 : MAX_CHUNK;
}
