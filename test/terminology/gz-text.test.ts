import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { forEachGzLine, forEachGzLineSync, readGzText, readGzTextSync } from '../../src/terminology/gz-text.js';
import { SharedText } from '../../src/terminology/shared-text.js';

// The compiled files read into shared memory as they are unzipped (issue 28, the engine thread's
// peak RSS): streamed or at once, the same text and the same lines as a plain reading.
describe('gzip text in shared memory', () => {
  const dir = mkdtempSync(join(tmpdir(), 'gz-text-'));
  const file = (name: string, text: string) => {
    const path = join(dir, name);
    writeFileSync(path, gzipSync(Buffer.from(text, 'utf8')));
    return path;
  };
  // Long enough for many stream pieces, with latin1 letters (two UTF-8 bytes) across their edges.
  const latin = Array.from({ length: 40_000 }, (_, i) => `I\t${i % 4}\tSjögren ${i}\tcafé\r`).join('\n');

  it('reads a latin1 text a byte a character, streamed or at once', async () => {
    const path = file('latin.gz', latin);
    for (const parts of [await readGzText(path), readGzTextSync(path)]) {
      expect(parts.wide).toBe(false);
      expect(new SharedText(parts).slice(0)).toBe(latin);
      expect(parts.bytes.buffer).toBeInstanceOf(SharedArrayBuffer);
    }
  });

  it('turns to two bytes a character at the first one beyond latin1', async () => {
    const text = `${latin}\nI\t0\tmeasles — rubeola\n${latin}`;
    const path = file('wide.gz', text);
    for (const parts of [await readGzText(path), readGzTextSync(path)]) {
      expect(parts.wide).toBe(true);
      expect(new SharedText(parts).slice(0)).toBe(text);
    }
  });

  it('hands over each line, streamed or at once, and the unzipped size first', async () => {
    const path = file('lines.gz', `${latin}\n`);
    const streamed: string[] = [];
    const atOnce: string[] = [];
    let size = 0;
    await forEachGzLine(
      path,
      (line) => streamed.push(line),
      (bytes) => (size = bytes),
    );
    forEachGzLineSync(path, (line) => atOnce.push(line));
    expect(size).toBe(Buffer.byteLength(`${latin}\n`));
    expect(streamed).toEqual(latin.split('\n'));
    expect(atOnce).toEqual(streamed);
  });
});
