import pg from 'pg';
import type { Logger } from '../lib/logger.js';

type Listener = (payload: string) => void;

/**
 * One dedicated LISTEN connection per process, shared by every in-process waiter (join, server-sent
 * events, codify awaiting its job). Writers call `pg_notify(channel, payload)` in the transaction
 * that makes the change, so a waiter wakes as soon as it commits. It reconnects after a drop and
 * then calls every `onReconnect` hook, so waiters re-read state they may have missed.
 */
export class NotificationHub {
  private client?: pg.Client;
  private readonly listeners = new Map<string, Set<Listener>>();
  private readonly reconnectHooks = new Set<() => void>();
  private stopped = false;
  private reconnectTimer?: NodeJS.Timeout;

  constructor(
    private readonly connectionString: string,
    private readonly channels: readonly string[],
    private readonly logger: Logger,
  ) {}

  async start(): Promise<void> {
    const client = new pg.Client({ connectionString: this.connectionString, application_name: 'clinigate-listen' });
    client.on('notification', (msg) => {
      for (const listener of this.listeners.get(msg.channel) ?? []) listener(msg.payload ?? '');
    });
    client.on('error', () => this.scheduleReconnect());
    client.on('end', () => this.scheduleReconnect());
    await client.connect();
    for (const channel of this.channels) await client.query(`LISTEN ${pg.escapeIdentifier(channel)}`);
    this.client = client;
  }

  private scheduleReconnect(): void {
    if (this.stopped || this.reconnectTimer) return;
    this.client = undefined;
    this.reconnectTimer = setTimeout(async () => {
      this.reconnectTimer = undefined;
      try {
        await this.start();
        for (const hook of this.reconnectHooks) hook();
      } catch {
        this.logger.warn('notification listener reconnect failed; retrying');
        this.scheduleReconnect();
      }
    }, 1_000);
  }

  /** Calls `listener` with every payload on `channel` until the returned function is called. */
  subscribe(channel: string, listener: Listener): () => void {
    if (!this.channels.includes(channel)) throw new Error(`Channel ${channel} is not listened to`);
    let set = this.listeners.get(channel);
    if (!set) this.listeners.set(channel, (set = new Set()));
    set.add(listener);
    return () => set!.delete(listener);
  }

  /** Runs `hook` after every reconnection, until the returned function is called. */
  onReconnect(hook: () => void): () => void {
    this.reconnectHooks.add(hook);
    return () => this.reconnectHooks.delete(hook);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.reconnectTimer);
    await this.client?.end().catch(() => {});
  }
}

/** Channels the service notifies on; payloads are ids, never PHI. */
export const CHANNELS = {
  /** payload: run id, on every status change of a run */
  runs: 'clinigate_runs',
  /** payload: codification run id, when it ends */
  codify: 'clinigate_codify',
  /** payload: outbox event id, when one is recorded */
  outbox: 'clinigate_outbox',
  /** payload: call id, on every status change of a call */
  calls: 'clinigate_calls',
} as const;

export const ALL_CHANNELS = Object.values(CHANNELS);
