/**
 * MLLP framing (HL7 v2 minimal lower layer protocol): every message travels as
 * `0x0B <bytes> 0x1C 0x0D`.
 *
 * Why not @medplum/hl7's Hl7Connection on the listening side: in 4.5.x it ends a frame only
 * when a TCP chunk happens to end with 0x1C 0x0D, so two messages arriving in one chunk (a
 * sender that pipelines) are glued into one, and bytes before the start byte are kept. It also
 * decodes before anyone has read MSH-18. This splitter is the part it lacks; parsing stays
 * @medplum/core's Hl7Message, and outbound sending stays @medplum/hl7's Hl7Client.
 */
export const VT = 0x0b;
export const FS = 0x1c;
export const CR = 0x0d;

export class FrameTooLargeError extends Error {}

export class MllpDeframer {
  private chunks: Buffer[] = [];
  private size = 0;
  private inFrame = false;

  /** True while a frame has begun (its start byte read) and not yet ended. */
  get open(): boolean {
    return this.inFrame;
  }

  constructor(private readonly maxFrameBytes: number) {}

  /** Feeds received bytes; returns the whole frames they complete (contents without the framing). */
  push(data: Buffer): Buffer[] {
    const frames: Buffer[] = [];
    let at = 0;
    while (at < data.length) {
      if (!this.inFrame) {
        // Bytes outside a frame (noise, a sender's stray CR) are dropped.
        const start = data.indexOf(VT, at);
        if (start < 0) return frames;
        this.inFrame = true;
        at = start + 1;
        continue;
      }
      const end = data.indexOf(FS, at);
      const piece = data.subarray(at, end < 0 ? data.length : end);
      this.append(piece);
      if (end < 0) return frames;
      frames.push(Buffer.concat(this.chunks, this.size));
      this.reset();
      // The CR after FS is expected; a missing one is tolerated (the next byte must be a VT anyway).
      at = data[end + 1] === CR ? end + 2 : end + 1;
    }
    return frames;
  }

  private append(piece: Buffer): void {
    if (piece.length === 0) return;
    this.size += piece.length;
    if (this.size > this.maxFrameBytes) {
      this.reset();
      throw new FrameTooLargeError(`MLLP frame larger than ${this.maxFrameBytes} bytes`);
    }
    this.chunks.push(piece);
  }

  private reset(): void {
    this.chunks = [];
    this.size = 0;
    this.inFrame = false;
  }
}

/** One frame around already-encoded message bytes. */
export function mllpFrame(payload: Buffer): Buffer {
  return Buffer.concat([Buffer.from([VT]), payload, Buffer.from([FS, CR])]);
}
