import { Hl7Message } from '@medplum/core';
import type { SendResult } from '../outbound-webhooks/transport/outbound-transport.js';
import { resolveHost, SsrfError, type OutboundRules } from '../outbound-webhooks/transport/ssrf-guard.js';
import { MllpClientError, type MllpClientPool } from './mllp-client.js';

/** `mllps://host:port` (MLLP over TLS) or `mllp://host:port`; throws SsrfError (a clear 400 at subscription) for anything else. */
export function parseMllpUrl(raw: string): { host: string; port: number; tls: boolean } {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new SsrfError('url must be mllps://host:port or mllp://host:port');
  }
  const port = Number(url.port);
  const scheme = url.protocol;
  if (
    (scheme !== 'mllp:' && scheme !== 'mllps:') ||
    !url.hostname ||
    !Number.isInteger(port) ||
    port < 1 ||
    (url.pathname !== '' && url.pathname !== '/')
  ) {
    throw new SsrfError('url must be mllps://host:port or mllp://host:port');
  }
  if (url.username || url.password) throw new SsrfError('url must not carry credentials');
  return { host: url.hostname, port, tls: scheme === 'mllps:' };
}

/** An MLLP destination's address under the outbound rules: plain `mllp://` only inside OUTBOUND_ALLOW_CIDRS. */
export async function resolveMllpUrl(raw: string, rules: boolean | OutboundRules) {
  const target = parseMllpUrl(raw);
  const { address } = await resolveHost(target.host, rules, undefined, target.tls ? undefined : 'mllp://');
  return { ...target, address };
}

export interface Hl7SendRequest {
  url: string;
  /** The messages, in order, built from the event with control ids derived from the delivery id (controlIdOf), so a retry or replay repeats them. */
  messages: Hl7Message[];
  rules: OutboundRules;
  timeoutMs: number;
  /** This process's kept connections (one per destination). */
  connections: MllpClientPool;
}

/** MSH-10 of a delivery's message: a letter for the message and 19 hex digits of the delivery id (20 characters, HL7 2.5's limit). */
export const controlIdOf = (deliveryId: string, kind: 'M' | 'D') => `${kind}${deliveryId.replace(/-/g, '').slice(0, 19).toUpperCase()}`;

/**
 * A note's messages to an HL7 destination (note.ready: MDM^T02 then ADT^A08; note.signed: MDM^T04
 * then ADT^A08; note.amended: MDM^T08), in order on the destination's kept connection, each
 * waiting for its ACK (read up to 1 MB). AA or CA goes on; AE or no answer within the timeout is
 * a retry of the delivery (all messages again, with the same control ids, so a receiver that keeps
 * MSH-10 drops the repeat); AR is dead.
 */
export async function sendHl7Note(req: Hl7SendRequest): Promise<SendResult> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  let target;
  try {
    target = await resolveMllpUrl(req.url, req.rules);
  } catch (err) {
    if (err instanceof SsrfError) return { statusCode: null, durationMs: elapsed(), error: `refused: ${err.message}`, permanent: true };
    throw err;
  }
  try {
    return await req.connections.session(
      { address: target.address, port: target.port, ...(target.tls ? { tls: { servername: target.host } } : {}) },
      req.timeoutMs,
      async (send) => {
        for (const message of req.messages) {
          const type = message.header.getComponent(9, 1) + '^' + message.header.getComponent(9, 2);
          const answer = (await send(Buffer.from(message.toString(), 'utf8'))).toString('utf8');
          const ack = Hl7Message.parse(answer.slice(answer.indexOf('MSH')));
          const code = ack.getSegment('MSA')?.getComponent(1, 1).toUpperCase() ?? '';
          // ERR-3 (a table code and its name), not MSA-3 or ERR-8: free text may name the patient.
          const err = ack.getSegment('ERR');
          const text = err ? `${err.getComponent(3, 1)} ${err.getComponent(3, 2)}`.trim().slice(0, 120) : '';
          if (code === 'AA' || code === 'CA') continue;
          const error = `${type} answered ${code || 'no MSA-1'}${text ? `: ${text}` : ''}`;
          return { statusCode: null, durationMs: elapsed(), error, permanent: code === 'AR' || code === 'CR' };
        }
        return { statusCode: null, durationMs: elapsed(), error: null, delivered: true };
      },
    );
  } catch (err) {
    const e = err as Error & { code?: string };
    const error = err instanceof MllpClientError ? err.message : `${e.code ?? 'ERROR'}: ${e.message}`;
    return { statusCode: null, durationMs: elapsed(), error: error.slice(0, 500) };
  }
}
