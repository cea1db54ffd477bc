/** A SharedText as posted to another thread: its bytes (in a SharedArrayBuffer) and their encoding. */
export interface SharedTextParts {
  bytes: Uint8Array;
  /** UTF-16 (two bytes a character); else latin1, one byte a character */
  wide: boolean;
}

const SLICE_CACHE_BITS = 11;
const SLICE_CACHE = 1 << SLICE_CACHE_BITS;
const CACHED_LENGTH = 128;

/**
 * Text held as bytes in shared memory rather than as a JavaScript string, so that every engine
 * thread reads the one copy (issue 28, the service's RSS: a string cannot be shared between
 * threads, a SharedArrayBuffer can). Offsets are in characters, as in a string; a slice is decoded
 * when it is read.
 */
export class SharedText {
  readonly length: number;
  private readonly buf: Buffer;
  /** parts.wide, read from a field of this class: parts posted from another thread have another shape than parts made here */
  private readonly wide: boolean;
  /**
   * The slices decoded last, direct-mapped by their start (SLICE_CACHE of them, each at most
   * CACHED_LENGTH characters: under ~0.3 MB a text): the coder reads the same titles, codes and
   * Index fields many times a note, and each decoding is a call into Node's binding and a new string.
   */
  private readonly cachedStart = new Int32Array(SLICE_CACHE).fill(-1);
  private readonly cachedEnd = new Int32Array(SLICE_CACHE);
  private readonly cached: string[] = new Array<string>(SLICE_CACHE).fill('');

  constructor(readonly parts: SharedTextParts) {
    this.buf = Buffer.from(parts.bytes.buffer, parts.bytes.byteOffset, parts.bytes.byteLength);
    this.wide = parts.wide;
    this.length = parts.wide ? this.buf.length >> 1 : this.buf.length;
  }

  /** `text`, copied into shared memory: one byte a character when every character fits in one. */
  static from(text: string): SharedText {
    let wide = false;
    for (let i = 0; i < text.length && !wide; i++) wide = text.charCodeAt(i) > 0xff;
    const bytes = new Uint8Array(new SharedArrayBuffer(wide ? text.length * 2 : text.length));
    Buffer.from(bytes.buffer).write(text, wide ? 'utf16le' : 'latin1');
    return new SharedText({ bytes, wide });
  }

  slice(start: number, end = this.length): string {
    if (end - start > CACHED_LENGTH || end <= start) return this.decode(start, end);
    const k = Math.imul(start, 0x9e3779b1) >>> (32 - SLICE_CACHE_BITS);
    if (this.cachedStart[k] === start && this.cachedEnd[k] === end) return this.cached[k];
    const text = this.decode(start, end);
    this.cachedStart[k] = start;
    this.cachedEnd[k] = end;
    this.cached[k] = text;
    return text;
  }

  private decode(start: number, end: number): string {
    return this.wide ? this.buf.toString('utf16le', start * 2, end * 2) : this.buf.toString('latin1', start, end);
  }

  charCodeAt(i: number): number {
    return this.wide ? this.buf.readUInt16LE(i * 2) : this.buf[i];
  }

  /** The first `code` (a character code) at or after `from`, or -1. */
  indexOf(code: number, from = 0): number {
    if (!this.wide) return code <= 0xff ? this.buf.indexOf(code, from) : -1;
    for (let i = from; i < this.length; i++) if (this.buf.readUInt16LE(i * 2) === code) return i;
    return -1;
  }

  /** The last `code` at or before `from`, or -1. */
  lastIndexOf(code: number, from = this.length - 1): number {
    if (!this.wide) return code <= 0xff ? this.buf.lastIndexOf(code, from) : -1;
    for (let i = Math.min(from, this.length - 1); i >= 0; i--) if (this.buf.readUInt16LE(i * 2) === code) return i;
    return -1;
  }
}

type Shareable = Int32Array | Uint8Array | Uint16Array | Float32Array | Float64Array;

/** A copy of `array` in shared memory (posting it to a thread then shares it rather than copying it). */
export function inSharedMemory<T extends Shareable>(array: T): T {
  const Kind = array.constructor as new (buffer: SharedArrayBuffer) => T;
  const out = new Kind(new SharedArrayBuffer(array.byteLength));
  out.set(array as never);
  return out;
}
