/** Longest piece of text handed to the sentence splitter at once. */
export const MAX_CHUNK = 2_000;
/** Longer runs without whitespace are not words (base64, hashes, keyboard mashing): dropped. */
export const MAX_TOKEN = 60;

const LONG_TOKEN = new RegExp(`\\S{${MAX_TOKEN + 1},}`, 'g');

/**
 * The non-blank lines of a note, over-long tokens removed, each cut into pieces of at most
 * MAX_CHUNK characters: at sentence punctuation when there is one, else at the last whitespace.
 * Linear in the length of the text.
 */
export function boundedChunks(text: string): string[] {
  const out: string[] = [];
  for (const raw of text.split(/\r?\n|\r/)) {
    const line = raw.length > MAX_TOKEN ? raw.replace(LONG_TOKEN, ' ') : raw;
    if (line.trim() === '') continue;
    let rest = line;
    while (rest.length > MAX_CHUNK) {
      const cut = cutPoint(rest);
      const piece = rest.slice(0, cut);
      if (piece.trim() !== '') out.push(piece);
      rest = rest.slice(cut);
    }
    if (rest.trim() !== '') out.push(rest);
  }
  return out;
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
