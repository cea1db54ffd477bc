import net from 'node:net';
import tls from 'node:tls';
import type { AppDeps } from '../../app-deps.js';
import { StartupError } from '../../lib/startup-error.js';
import { encodeHl7 } from './hl7-charset.js';
import { rejectUnreadable } from './hl7-ack.js';
import { HL7_TYPES } from './hl7-event.js';
import { hl7Intake } from './hl7-intake.js';
import { Hl7Reader } from './hl7-reader.js';
import { FrameTooLargeError, MllpDeframer, mllpFrame } from './mllp-frames.js';
import { PeerGate, peerAddress } from './peer-gate.js';

/** A connection that sends nothing for this long is closed (engines reconnect on demand). */
const IDLE_TIMEOUT_MS = 10 * 60_000;
/** Frames read but not yet answered, per connection, before reading pauses. */
const MAX_QUEUED = 100;

export interface MllpTls {
  cert: string | Buffer;
  key: string | Buffer;
  /** CAs a client certificate must chain to; unset: any certificate, pinned by the sender's fingerprint. */
  ca?: string | Buffer;
}

export interface MllpLimits {
  /** DESIGN: 1 MB (HL7_MAX_FRAME_BYTES). */
  maxFrameBytes: number;
  /** A frame (or a TLS handshake) must complete within this of its first byte (DESIGN: 30 s). */
  frameTimeoutMs: number;
  /** Connections at once, over both listeners (DESIGN: 100), and per peer address (10). */
  maxConnections: number;
  maxPerPeer: number;
}

export const DEFAULT_MLLP_LIMITS: MllpLimits = {
  maxFrameBytes: 1024 * 1024,
  frameTimeoutMs: 30_000,
  maxConnections: 100,
  maxPerPeer: 10,
};

export interface MllpListenerOptions {
  host: string;
  /** Plain MLLP (HL7_MLLP_PORT); 0: any free port. */
  port?: number;
  /** MLLP over TLS (HL7_MLLPS_PORT), with `tls`. */
  tlsPort?: number;
  tls?: MllpTls;
  limits?: Partial<MllpLimits>;
}

export interface MllpListener {
  /** The plain listener's port (0 when only TLS listens). */
  port: number;
  tlsPort: number | undefined;
  /** Stops taking connections, lets messages in hand be answered, then closes the rest. */
  stop(graceMs?: number): Promise<void>;
}

/**
 * The MLLP listeners (API role), plain and over TLS. The peer is the credential (DESIGN
 * 2026-11-26): a connection from an address that no HL7 sender allows, or past the connection
 * limits, is closed before a byte is read (the socket starts paused). Each connection then reads
 * frames in order and answers each with its ACK before the next one is read, as MLLP senders
 * expect; a frame past maxFrameBytes is AR and closes the connection, and so does one not complete
 * within frameTimeoutMs. Nothing a peer sends can throw past a connection.
 */
export async function startMllpListener(deps: AppDeps, options: MllpListenerOptions): Promise<MllpListener> {
  const limits = { ...DEFAULT_MLLP_LIMITS, ...options.limits };
  const reader = new Hl7Reader();
  const warming = reader.warm();
  const intake = hl7Intake(deps, reader);
  const gate = new PeerGate(deps.pool);
  const secureContext = options.tls ? tls.createSecureContext(options.tls) : undefined;
  const sockets = new Map<net.Socket, { busy: Promise<void> }>();
  const perPeer = new Map<string, number>();
  let stopping = false;
  // One log line per refused address a minute at most: a flood must not become a flood of logs.
  const refusalsLogged = new Map<string, number>();
  const logRefusal = (address: string, reason: string) => {
    const last = refusalsLogged.get(address) ?? 0;
    if (Date.now() - last < 60_000) return;
    if (refusalsLogged.size > 1_000) refusalsLogged.clear();
    refusalsLogged.set(address, Date.now());
    deps.logger.info('mllp connection refused', { peer: address, reason });
  };

  /** Serves one admitted connection (a plain socket, or the TLS socket over it). */
  function serve(socket: net.Socket, address: string, secure: tls.TLSSocket | undefined): void {
    const state = { busy: Promise.resolve() };
    sockets.set(socket, state);
    // A sender that pipelines without waiting for ACKs is read no faster than it is answered.
    let queued = 0;
    let refused = false;
    let frameTimer: NodeJS.Timeout | undefined;
    const deframer = new MllpDeframer(limits.maxFrameBytes);
    const disarm = () => {
      clearTimeout(frameTimer);
      frameTimer = undefined;
    };
    const refuse = (text: string) => {
      refused = true;
      disarm();
      socket.end(mllpFrame(encodeHl7(rejectUnreadable(text).toString())));
      setTimeout(() => socket.destroy(), 1_000).unref();
    };
    const armFrameTimer = () => {
      disarm();
      frameTimer = setTimeout(() => {
        frameTimer = undefined;
        // Our own back-pressure holds the rest of the frame: its peer is not slow.
        if (socket.isPaused()) return armFrameTimer();
        refuse(`MLLP frame not completed within ${Math.round(limits.frameTimeoutMs / 1000)} s`);
      }, limits.frameTimeoutMs).unref();
    };
    socket.setTimeout(IDLE_TIMEOUT_MS, () => socket.destroy());
    socket.on('close', () => {
      disarm();
      sockets.delete(socket);
    });
    socket.on('data', (data: Buffer) => {
      if (refused) return;
      let frames: Buffer[];
      try {
        frames = deframer.push(data);
      } catch (err) {
        if (!(err instanceof FrameTooLargeError)) throw err;
        refuse(err.message);
        return;
      }
      // The deadline runs from a frame's first byte: a new one for a frame begun in this chunk.
      if (!deframer.open) disarm();
      else if (frames.length > 0 || frameTimer === undefined) armFrameTimer();
      for (const frame of frames) {
        if (++queued >= MAX_QUEUED) socket.pause();
        state.busy = state.busy
          .then(async () => {
            const started = performance.now();
            const cert = secure?.getPeerCertificate();
            const trusted = secure && (!options.tls?.ca || secure.authorized);
            const result = await intake(frame, { address, fingerprint: trusted && cert?.fingerprint256 ? cert.fingerprint256 : undefined });
            if (!socket.destroyed) socket.write(mllpFrame(result.ack));
            // Only the supported types as labels: a sender cannot grow the metric's label set.
            const type = HL7_TYPES.includes(result.type) ? result.type : 'other';
            deps.metrics.hl7Ack.observe({ type, ack: result.code }, (performance.now() - started) / 1000);
            deps.logger.info('hl7 message acknowledged', {
              type: result.type,
              control_id: result.controlId.slice(0, 64),
              ack: result.code,
              duplicate: result.duplicate,
              ms: Math.round(performance.now() - started),
            });
          })
          .catch((err: Error) => {
            // Only reading can throw past the intake (storing is caught there), so nothing was
            // stored: an AR tells the sender, and the connection goes on.
            deps.logger.error('mllp message unreadable', { error_name: err.name });
            if (!socket.destroyed) socket.write(mllpFrame(encodeHl7(rejectUnreadable('Unreadable message').toString())));
          })
          .finally(() => {
            if (--queued < MAX_QUEUED && !stopping) socket.resume();
          });
      }
    });
  }

  /** The first check of every connection, made while the socket is paused: nothing is read before it. */
  async function admit(raw: net.Socket, overTls: boolean): Promise<void> {
    const address = peerAddress(raw.remoteAddress);
    raw.on('error', (err) => deps.logger.warn('mllp connection error', { code: (err as NodeJS.ErrnoException).code }));
    const count = perPeer.get(address) ?? 0;
    if (stopping || sockets.size >= limits.maxConnections || count >= limits.maxPerPeer) {
      if (!stopping) logRefusal(address, count >= limits.maxPerPeer ? 'connections per address' : 'connections');
      raw.destroy();
      return;
    }
    // Counted before the check, so a burst cannot pass the limits while the list is read.
    perPeer.set(address, count + 1);
    const placeholder = { busy: Promise.resolve() };
    sockets.set(raw, placeholder);
    raw.once('close', () => {
      sockets.delete(raw);
      const left = (perPeer.get(address) ?? 1) - 1;
      if (left > 0) perPeer.set(address, left);
      else perPeer.delete(address);
    });
    let allowed = false;
    try {
      allowed = await gate.admits(address);
    } catch (err) {
      deps.logger.error('mllp peer check failed', { error_name: (err as Error).name });
    }
    if (!allowed || raw.destroyed || stopping) {
      if (!allowed) logRefusal(address, "address not in any sender's allowed_ips");
      raw.destroy();
      return;
    }
    if (!overTls) {
      serve(raw, address, undefined);
      raw.resume();
      return;
    }
    const secure = new tls.TLSSocket(raw, { isServer: true, secureContext, requestCert: true, rejectUnauthorized: false });
    secure.on('error', (err) => deps.logger.warn('mllps connection error', { code: (err as NodeJS.ErrnoException).code }));
    const handshake = setTimeout(() => secure.destroy(), limits.frameTimeoutMs).unref();
    secure.once('secure', () => clearTimeout(handshake));
    secure.once('close', () => {
      clearTimeout(handshake);
      raw.destroy();
    });
    sockets.delete(raw);
    serve(secure, address, secure);
    raw.resume();
  }

  const servers: net.Server[] = [];
  const listen = async (port: number, overTls: boolean, variable: string): Promise<number> => {
    const server = net.createServer({ pauseOnConnect: true }, (raw) => void admit(raw, overTls));
    await new Promise<void>((resolve, reject) => {
      const refuse = (err: NodeJS.ErrnoException) =>
        reject(
          err.code === 'EADDRINUSE'
            ? new StartupError(`MLLP port ${port} is in use by another process: stop it, or set ${variable} to a free port`)
            : err,
        );
      server.once('error', refuse);
      server.listen(port, options.host, () => {
        server.off('error', refuse);
        resolve();
      });
    });
    server.on('error', (err) => deps.logger.error('mllp listener error', { error_name: err.name }));
    servers.push(server);
    const bound = (server.address() as net.AddressInfo).port;
    deps.logger.info(overTls ? 'mllps listening' : 'mllp listening', { host: options.host, port: bound });
    return bound;
  };

  const closeAll = async () => {
    await Promise.all(servers.map((s) => new Promise<void>((resolve) => s.close(() => resolve()))));
    await reader.close();
  };
  try {
    const port = options.port !== undefined ? await listen(options.port, false, 'HL7_MLLP_PORT') : 0;
    if (options.tlsPort !== undefined && !secureContext) throw new StartupError('HL7_MLLPS_PORT needs HL7_TLS_CERT and HL7_TLS_KEY');
    const tlsPort = options.tlsPort !== undefined ? await listen(options.tlsPort, true, 'HL7_MLLPS_PORT') : undefined;
    await warming;
    return {
      port,
      tlsPort,
      stop: async (graceMs = 5_000) => {
        stopping = true;
        const closed = closeAll();
        for (const socket of sockets.keys()) socket.pause();
        // Messages already read are answered (their commit decides AA); then every socket goes.
        const inHand = Promise.all([...sockets.values()].map((s) => s.busy));
        await Promise.race([inHand, new Promise((r) => setTimeout(r, graceMs).unref())]);
        for (const socket of sockets.keys()) socket.destroy();
        await closed;
      },
    };
  } catch (err) {
    await closeAll();
    throw err;
  }
}
