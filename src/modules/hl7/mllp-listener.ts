import net from 'node:net';
import type { AppDeps } from '../../app-deps.js';
import { encodeHl7 } from './hl7-charset.js';
import { FrameTooLargeError, MllpDeframer, mllpFrame } from './mllp-frames.js';
import { rejectUnreadable } from './hl7-ack.js';
import { HL7_TYPES } from './hl7-event.js';
import { hl7Intake } from './hl7-intake.js';
import { StartupError } from '../../lib/startup-error.js';

/** A transcript with a long visit is a few hundred KB; a frame past this is refused. */
const MAX_FRAME_BYTES = 16 * 1024 * 1024;
/** A connection that sends nothing for this long is closed (engines reconnect on demand). */
const IDLE_TIMEOUT_MS = 10 * 60_000;
/** Frames read but not yet answered, per connection, before reading pauses. */
const MAX_QUEUED = 100;

export interface MllpListener {
  port: number;
  /** Stops taking connections, lets messages in hand be answered, then closes the rest. */
  stop(graceMs?: number): Promise<void>;
}

/**
 * The MLLP listener (API role). Each connection reads frames in order and answers each with
 * its ACK before the next one is read, as MLLP senders expect; many messages may share one
 * connection, and a frame may arrive in many pieces or many frames in one. Nothing a peer sends
 * can throw past a connection: bad bytes get an AR, a socket error closes only that socket.
 */
export async function startMllpListener(deps: AppDeps, port: number, host: string): Promise<MllpListener> {
  const intake = hl7Intake(deps);
  const sockets = new Map<net.Socket, { busy: Promise<void> }>();
  let stopping = false;

  const server = net.createServer((socket) => {
    const state = { busy: Promise.resolve() };
    sockets.set(socket, state);
    // A sender that pipelines without waiting for ACKs is read no faster than it is answered.
    let queued = 0;
    let refused = false;
    const deframer = new MllpDeframer(MAX_FRAME_BYTES);
    socket.setTimeout(IDLE_TIMEOUT_MS, () => socket.destroy());
    socket.on('error', (err) => deps.logger.warn('mllp connection error', { code: (err as NodeJS.ErrnoException).code }));
    socket.on('close', () => sockets.delete(socket));
    socket.on('data', (data) => {
      if (refused) return;
      let frames: Buffer[];
      try {
        frames = deframer.push(data);
      } catch (err) {
        if (!(err instanceof FrameTooLargeError)) throw err;
        refused = true;
        socket.end(mllpFrame(encodeHl7(rejectUnreadable(err.message).toString())));
        return;
      }
      for (const frame of frames) {
        if (++queued >= MAX_QUEUED) socket.pause();
        state.busy = state.busy
          .then(async () => {
            const started = performance.now();
            const result = await intake(frame);
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
  });

  await new Promise<void>((resolve, reject) => {
    const refuse = (err: NodeJS.ErrnoException) =>
      reject(
        err.code === 'EADDRINUSE'
          ? new StartupError(`MLLP port ${port} is in use by another process: stop it, or set HL7_MLLP_PORT to a free port`)
          : err,
      );
    server.once('error', refuse);
    server.listen(port, host, () => {
      server.off('error', refuse);
      resolve();
    });
  });
  server.on('error', (err) => deps.logger.error('mllp listener error', { error_name: err.name }));
  const address = server.address() as net.AddressInfo;
  deps.logger.info('mllp listening', { host, port: address.port });

  return {
    port: address.port,
    stop: async (graceMs = 5_000) => {
      stopping = true;
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      for (const socket of sockets.keys()) socket.pause();
      // Messages already read are answered (their commit decides AA); then every socket goes.
      const inHand = Promise.all([...sockets.values()].map((s) => s.busy));
      await Promise.race([inHand, new Promise((r) => setTimeout(r, graceMs).unref())]);
      for (const socket of sockets.keys()) socket.destroy();
      await closed;
    },
  };
}
