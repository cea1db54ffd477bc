import net from 'node:net';
import tls from 'node:tls';
import { FrameTooLargeError, MllpDeframer, mllpFrame } from './mllp-frames.js';

/** DESIGN 2026-11-26: an ACK read from a destination is at most 1 MB. */
export const MAX_ACK_BYTES = 1024 * 1024;

export interface MllpTarget {
  /** The address to connect to (already checked by the SSRF guard). */
  address: string;
  port: number;
  /** mllps://: TLS, the server certificate verified against `servername` (the URL's host). */
  tls?: { servername: string };
}

export class MllpClientError extends Error {
  constructor(
    message: string,
    /** `timeout`: no ACK in time; `closed`: the connection ended or failed; `busy`: the destination's connection stayed taken. */
    readonly reason: 'timeout' | 'closed' | 'busy' | 'too-large',
  ) {
    super(message);
  }
}

/** One open MLLP connection: one message at a time, each answered by the next frame. */
class MllpConnection {
  private readonly deframer = new MllpDeframer(MAX_ACK_BYTES);
  private waiting: { resolve(frame: Buffer): void; reject(err: Error): void } | undefined;
  closed = false;

  private constructor(private readonly socket: net.Socket) {
    socket.on('data', (data: Buffer) => {
      let frames: Buffer[];
      try {
        frames = this.deframer.push(data);
      } catch (err) {
        this.fail(new MllpClientError((err as FrameTooLargeError).message.replace('MLLP frame', 'ACK'), 'too-large'));
        return;
      }
      // A frame nobody waits for (a late ACK after a timeout closed nothing) is dropped.
      for (const frame of frames) {
        const w = this.waiting;
        this.waiting = undefined;
        w?.resolve(frame);
      }
    });
    socket.on('error', (err) =>
      this.fail(new MllpClientError(`${(err as NodeJS.ErrnoException).code ?? 'ERROR'}: ${err.message}`, 'closed')),
    );
    socket.on('close', () => this.fail(new MllpClientError('the destination closed the connection', 'closed')));
  }

  static open(target: MllpTarget, timeoutMs: number, ca?: string | Buffer): Promise<MllpConnection> {
    return new Promise((resolve, reject) => {
      const socket = target.tls
        ? tls.connect({
            host: target.address,
            port: target.port,
            // SNI takes a host name only; the certificate is checked against the URL's host either way.
            ...(net.isIP(target.tls.servername) ? {} : { servername: target.tls.servername }),
            checkServerIdentity: (_host, cert) => tls.checkServerIdentity(target.tls!.servername, cert),
            ...(ca ? { ca } : {}),
          })
        : net.connect({ host: target.address, port: target.port });
      const timer = setTimeout(() => {
        socket.destroy();
        reject(new MllpClientError(`no connection within ${timeoutMs} ms`, 'timeout'));
      }, timeoutMs);
      socket.once(target.tls ? 'secureConnect' : 'connect', () => {
        clearTimeout(timer);
        socket.removeAllListeners('error');
        resolve(new MllpConnection(socket));
      });
      socket.once('error', (err) => {
        clearTimeout(timer);
        socket.destroy();
        reject(new MllpClientError(`${(err as NodeJS.ErrnoException).code ?? 'ERROR'}: ${err.message}`, 'closed'));
      });
    });
  }

  /** Writes one message and waits for the next frame (its ACK). */
  exchange(payload: Buffer, timeoutMs: number): Promise<Buffer> {
    if (this.closed) return Promise.reject(new MllpClientError('the destination closed the connection', 'closed'));
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => this.fail(new MllpClientError(`no ACK within ${timeoutMs} ms`, 'timeout')), timeoutMs);
      this.waiting = {
        resolve: (frame) => {
          clearTimeout(timer);
          resolve(frame);
        },
        reject: (err) => {
          clearTimeout(timer);
          reject(err);
        },
      };
      this.socket.write(mllpFrame(payload));
    });
  }

  /** Ends the connection; whoever waits gets `err`. */
  fail(err: Error): void {
    this.closed = true;
    const w = this.waiting;
    this.waiting = undefined;
    w?.reject(err);
    this.socket.destroy();
  }
}

interface Destination {
  connection?: MllpConnection;
  /** The end of the queue of sessions on this destination (one at a time, in order). */
  tail: Promise<void>;
  idle?: NodeJS.Timeout;
}

export interface MllpClientPoolOptions {
  /** An unused connection is closed after this (ms). */
  idleMs?: number;
  /** CAs to trust instead of the system's (tests with their own certificate authority). */
  ca?: string | Buffer;
}

/**
 * Outbound MLLP connections, one per destination, kept open and reused by the deliveries that
 * follow (hospital interface engines expect a standing connection, not one per message). A session
 * has the connection to itself, so the messages of one delivery (an MDM^T02 and its ADT^A08) are
 * never interleaved with another's; sessions to one destination wait their turn, at most the
 * timeout. A connection that fails or times out is closed and the next session opens a new one.
 */
export class MllpClientPool {
  private readonly destinations = new Map<string, Destination>();
  private readonly idleMs: number;

  constructor(private readonly options: MllpClientPoolOptions = {}) {
    this.idleMs = options.idleMs ?? 60_000;
  }

  /** Connections open now (for tests and metrics). */
  get openConnections(): number {
    return [...this.destinations.values()].filter((d) => d.connection && !d.connection.closed).length;
  }

  async session<T>(target: MllpTarget, timeoutMs: number, work: (send: (payload: Buffer) => Promise<Buffer>) => Promise<T>): Promise<T> {
    const key = `${target.tls ? `mllps:${target.tls.servername}@` : 'mllp:'}${target.address}:${target.port}`;
    let dest = this.destinations.get(key);
    if (!dest) {
      dest = { tail: Promise.resolve() };
      this.destinations.set(key, dest);
    }
    const release = await this.acquire(dest, timeoutMs);
    clearTimeout(dest.idle);
    try {
      let sent = 0;
      const send = async (payload: Buffer): Promise<Buffer> => {
        const reused = dest.connection !== undefined && !dest.connection.closed;
        if (!reused) dest.connection = await MllpConnection.open(target, timeoutMs, this.options.ca);
        try {
          const ack = await dest.connection!.exchange(payload, timeoutMs);
          sent++;
          return ack;
        } catch (err) {
          // A kept connection the destination closed while it was idle: once more on a new one.
          if (reused && sent === 0 && err instanceof MllpClientError && err.reason === 'closed') {
            dest.connection = await MllpConnection.open(target, timeoutMs, this.options.ca);
            sent++;
            return dest.connection.exchange(payload, timeoutMs);
          }
          throw err;
        }
      };
      return await work(send);
    } catch (err) {
      dest.connection?.fail(err as Error);
      dest.connection = undefined;
      throw err;
    } finally {
      release();
      dest.idle = setTimeout(() => {
        dest.connection?.fail(new MllpClientError('idle', 'closed'));
        dest.connection = undefined;
      }, this.idleMs).unref();
    }
  }

  private async acquire(dest: Destination, timeoutMs: number): Promise<() => void> {
    const before = dest.tail;
    let release!: () => void;
    const mine = new Promise<void>((r) => (release = r));
    dest.tail = before.then(() => mine);
    let timer: NodeJS.Timeout | undefined;
    const turn = await Promise.race([before.then(() => true), new Promise<false>((r) => (timer = setTimeout(() => r(false), timeoutMs)))]);
    clearTimeout(timer);
    if (!turn) {
      // Give the place back as soon as it comes, so those behind are not held.
      void before.then(release);
      throw new MllpClientError(`the destination's connection stayed busy for ${timeoutMs} ms`, 'busy');
    }
    return release;
  }

  close(): void {
    for (const dest of this.destinations.values()) {
      clearTimeout(dest.idle);
      dest.connection?.fail(new MllpClientError('closed', 'closed'));
    }
    this.destinations.clear();
  }
}
