import { readFileSync } from 'node:fs';
import { createGunzip, gunzipSync } from 'node:zlib';
import type { SharedTextParts } from './shared-text.js';

/**
 * The shipped release's compiled files (gzip of UTF-8 text) read into shared memory without the
 * whole file ever held unzipped beside it (issue 28, the service's RSS: `gunzipSync` held the
 * file's chunks and their joined copy, then a string of it, before the shared copy was made: ~3
 * times the file at the engine thread's peak, which the allocator kept). The text is decoded as it
 * is unzipped, into one shared array sized by the size the gzip trailer states: `readGzText`
 * streams it (the engine thread, where the peak counts), `readGzTextSync` unzips it into one
 * buffer first (scripts and tests). `forEachGzLine` hands the lines over one by one instead.
 */

/** Sized for a few lines of text: the stream's pieces are decoded and dropped as they come. */
const CHUNK = 64 * 1024;

/** The text of a compiled file, in shared memory as SharedText reads it (streamed: no copy of the file is ever whole). */
export async function readGzText(file: string): Promise<SharedTextParts> {
  const gz = readFileSync(file);
  const out = new TextSink(statedSize(gz));
  for await (const piece of inflated(gz)) out.write(piece);
  return out.finish();
}

/** `readGzText`, at once: the file unzipped into one buffer of its size, then decoded into shared memory. */
export function readGzTextSync(file: string): SharedTextParts {
  const gz = readFileSync(file);
  const out = new TextSink(statedSize(gz));
  out.write(gunzipSync(gz, { chunkSize: Math.max(CHUNK, statedSize(gz) + 1) }));
  return out.finish();
}

/** Each line of a compiled file, without its line break (streamed), and the file's unzipped size (known before the first line). */
export async function forEachGzLine(file: string, visit: (line: string) => void, sized?: (bytes: number) => void): Promise<void> {
  const gz = readFileSync(file);
  sized?.(statedSize(gz));
  const lines = new LineSplitter(visit);
  for await (const piece of inflated(gz)) lines.write(piece);
  lines.finish();
}

/** `forEachGzLine`, at once. */
export function forEachGzLineSync(file: string, visit: (line: string) => void, sized?: (bytes: number) => void): void {
  const gz = readFileSync(file);
  sized?.(statedSize(gz));
  const lines = new LineSplitter(visit);
  lines.write(gunzipSync(gz, { chunkSize: Math.max(CHUNK, statedSize(gz) + 1) }));
  lines.finish();
}

/** The unzipped size a gzip file's trailer states (modulo 2^32: the compiled files are far smaller). */
function statedSize(gz: Buffer): number {
  return gz.readUInt32LE(gz.length - 4);
}

function inflated(gz: Buffer): AsyncIterable<Buffer> {
  const gunzip = createGunzip({ chunkSize: CHUNK });
  gunzip.end(gz);
  return gunzip;
}

const BEYOND_LATIN1 = /[\u0100-\uffff]/;

/** Unzipped bytes decoded as UTF-8 into shared memory: a byte a character while all fit in latin1, else two. */
class TextSink {
  private readonly decoder = new TextDecoder('utf-8');
  private bytes: Uint8Array;
  private target: Buffer;
  private wide = false;
  /** characters written */
  private length = 0;

  /** `size`: the UTF-8 bytes to come, as many characters at most. */
  constructor(private readonly size: number) {
    this.bytes = new Uint8Array(new SharedArrayBuffer(Math.max(1, size)));
    this.target = Buffer.from(this.bytes.buffer);
  }

  write(piece: Uint8Array): void {
    this.put(this.decoder.decode(piece, { stream: true }));
  }

  finish(): SharedTextParts {
    this.put(this.decoder.decode());
    return { bytes: this.bytes.subarray(0, this.length * (this.wide ? 2 : 1)), wide: this.wide };
  }

  private put(text: string): void {
    if (this.length + text.length > this.size) throw new Error('gz-text: the file is longer than its gzip trailer says');
    if (!this.wide && BEYOND_LATIN1.test(text)) this.widen();
    this.target.write(text, this.length * (this.wide ? 2 : 1), this.wide ? 'utf16le' : 'latin1');
    this.length += text.length;
  }

  /** A character beyond latin1: two bytes a character from here, those written so far widened. */
  private widen(): void {
    const chars = new Uint16Array(new SharedArrayBuffer(2 * Math.max(1, this.size)));
    for (let i = 0; i < this.length; i++) chars[i] = this.bytes[i];
    this.bytes = new Uint8Array(chars.buffer);
    this.target = Buffer.from(chars.buffer);
    this.wide = true;
  }
}

/** Unzipped bytes decoded as UTF-8 and cut into lines ('\n'; a '\r' before it is the line's). */
class LineSplitter {
  private readonly decoder = new TextDecoder('utf-8');
  private rest = '';

  constructor(private readonly visit: (line: string) => void) {}

  write(piece: Uint8Array): void {
    this.put(this.decoder.decode(piece, { stream: true }));
  }

  finish(): void {
    this.put(this.decoder.decode());
    if (this.rest !== '') this.visit(this.rest);
    this.rest = '';
  }

  private put(text: string): void {
    const all = this.rest === '' ? text : this.rest + text;
    let at = 0;
    for (let nl = all.indexOf('\n'); nl >= 0; nl = all.indexOf('\n', at)) {
      this.visit(all.slice(at, nl));
      at = nl + 1;
    }
    this.rest = all.slice(at);
  }
}
