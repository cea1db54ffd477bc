import net from 'node:net';
import tls from 'node:tls';
import { Hl7Message } from '@medplum/core';
import { MllpDeframer, mllpFrame } from '../../src/modules/hl7/mllp-frames.js';

/** A raw MLLP sender: writes whatever bytes it is given and reads the ACK frames that come back. */
export class MllpPeer {
  private readonly deframer = new MllpDeframer(1 << 24);
  private readonly frames: Buffer[] = [];
  private waiters: Array<() => void> = [];
  closed = false;

  private constructor(readonly socket: net.Socket) {
    socket.on('data', (d) => {
      this.frames.push(...this.deframer.push(d));
      this.waiters.splice(0).forEach((w) => w());
    });
    socket.on('close', () => {
      this.closed = true;
      this.waiters.splice(0).forEach((w) => w());
    });
    socket.on('error', () => {});
  }

  /**
   * Connects to 127.0.0.1 from `localAddress` (any 127.x address is this machine: a peer of another
   * address), over TLS with `tls` (a client certificate, or none).
   */
  static connect(port: number, options: { localAddress?: string; tls?: tls.ConnectionOptions } = {}): Promise<MllpPeer> {
    return new Promise((resolve, reject) => {
      const socket = options.tls
        ? tls.connect(
            { port, host: '127.0.0.1', ...(options.localAddress ? { localAddress: options.localAddress } : {}), ...options.tls },
            () => resolve(new MllpPeer(socket)),
          )
        : net.connect({ port, host: '127.0.0.1', localAddress: options.localAddress }, () => resolve(new MllpPeer(socket)));
      socket.once('error', reject);
    });
  }

  write(bytes: Buffer | string): void {
    this.socket.write(bytes);
  }

  /** Waits for `n` ACK frames in all (or the socket to close) within `timeoutMs`. */
  async acks(n: number, timeoutMs = 10_000): Promise<Buffer[]> {
    const deadline = Date.now() + timeoutMs;
    while (this.frames.length < n && !this.closed && Date.now() < deadline) {
      await new Promise<void>((resolve) => {
        this.waiters.push(resolve);
        setTimeout(resolve, 50);
      });
    }
    return this.frames.slice(0, n);
  }

  /** Sends one framed message and reads its ACK. */
  async send(message: string, encoding: BufferEncoding = 'utf8', timeoutMs = 10_000): Promise<Hl7Message> {
    const before = this.frames.length;
    this.write(mllpFrame(Buffer.from(message, encoding)));
    const got = await this.acks(before + 1, timeoutMs);
    if (got.length <= before) throw new Error('no ACK');
    return Hl7Message.parse(got[before].toString(encoding));
  }

  close(): void {
    this.socket.destroy();
  }
}

export const ackCode = (ack: Hl7Message) => ack.getSegment('MSA')!.getField(1).toString();
export const ackControlId = (ack: Hl7Message) => ack.getSegment('MSA')!.getField(2).toString();
export const ackError = (ack: Hl7Message) => ack.getSegment('ERR')?.toString() ?? '';
