import type { Config } from '../../../config.js';
import type { SecretBox } from '../../../lib/secret-box.js';
import type { ClaimedDelivery } from '../deliveries/webhook-deliveries.repo.js';
import { badRequest } from '../../../lib/errors.js';
import { outboundRules, SsrfError, type OutboundRules } from './ssrf-guard.js';

/**
 * The contract between the delivery job and the kinds of destination. Each kind is declared by the
 * module that speaks its protocol (`<kind>.transport.ts`: the webhook here, HL7 over MLLP in hl7/,
 * FHIR in fhir/) and listed by the root's transport-registry.ts, as job-registry.ts lists the jobs;
 * the delivery job knows this file only, so a webhook's delivery loads no HL7 or FHIR code.
 */

/** The kinds of destination an endpoint may be (DESIGN "Hospital protocols"). */
export const ENDPOINT_KINDS = ['webhook', 'hl7-mllp', 'fhir'] as const;
export type EndpointKind = (typeof ENDPOINT_KINDS)[number];

/** The per-request timeout of every kind (DESIGN: 15 s). */
export const DELIVERY_TIMEOUT_MS = 15_000;

/** What one attempt of any transport came to; delivery-outcome.ts turns it into the delivery's next state. */
export interface SendResult {
  statusCode: number | null;
  durationMs: number;
  /** why the attempt failed, never the response body */
  error: string | null;
  /** seconds the receiver asked us to wait (Retry-After) */
  retryAfter?: number;
  /** true when retrying cannot help (the address is refused, an HL7 AR, a FHIR server refusing the content) */
  permanent?: boolean;
  /** set by transports whose success is not an HTTP 2xx (an HL7 AA or CA) */
  delivered?: boolean;
}

/** Where a built message goes: the delivery's id (the Standard Webhooks message id; HL7 control ids derive from it), its endpoint and the outbound rules. */
export interface Destination {
  deliveryId: string;
  endpointId: string;
  url: string;
  rules: OutboundRules;
}

/** A claimed delivery read into its message (`send`), or why it is not sent: cancelled, or dead at once (a FHIR note without its patient). */
export type Built<M> = { send: M } | { cancel: string } | { dead: string };

/** Opens one of the endpoint's sealed columns (secret, previous_secret, auth_private_key). */
export type OpenSecret = (column: 'secret' | 'previous_secret' | 'auth_private_key', sealed: string) => string;

/** A new endpoint's destination, as its creation checks it. */
export interface NewDestination {
  url: string;
  auth?: { token_url: string; private_key: string };
}

/** One kind of destination: how a claimed delivery becomes its message, and how the message is sent. */
export interface OutboundTransport<M, S> {
  kind: EndpointKind;
  /** Reads the claimed delivery's event and endpoint into the message this kind sends (its secrets opened). */
  build(d: ClaimedDelivery, open: OpenSecret): Built<M>;
  /** What the kind keeps between attempts in one process (open connections, access tokens). */
  newState(): S;
  /** One attempt of a built message, never a database row; every failure is a SendResult. */
  send(to: Destination, message: M, timeoutMs: number, state: S): Promise<SendResult>;
  /** At subscription: throws an AppError (400) naming the field when the destination cannot be reached under the rules. */
  checkDestination(destination: NewDestination, rules: OutboundRules): Promise<void>;
}

/** A destination check of `checkDestination`: an address the rules refuse (SsrfError) is a 400 naming `field`. */
export async function refusedAs(field: string, check: Promise<unknown>): Promise<void> {
  try {
    await check;
  } catch (err) {
    if (err instanceof SsrfError) throw badRequest(`${field}: ${err.message}`);
    throw err;
  }
}

// Each kind names its own message and state; the table of kinds holds them all.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyTransport = OutboundTransport<any, any>;

/** One attempt of a claimed delivery by its endpoint's kind; a string: why it is not sent (the delivery is cancelled). */
export type DeliverySender = (d: ClaimedDelivery, timeoutMs: number) => Promise<SendResult | string>;

/** What a sender reads from the service: the outbound rules and the sealed secrets' key. */
export interface TransportDeps {
  config: Pick<Config, 'WEBHOOK_ALLOW_PRIVATE' | 'OUTBOUND_ALLOW_CIDRS'>;
  secrets: Pick<SecretBox, 'open'>;
}

/** The registered kinds, found by name (the root builds it from transport-registry.ts). */
export class OutboundTransports {
  private readonly byKind: Map<string, AnyTransport>;

  constructor(readonly all: readonly AnyTransport[]) {
    this.byKind = new Map(all.map((t) => [t.kind, t]));
    if (this.byKind.size !== all.length) throw new Error('An outbound transport kind is registered twice');
  }

  of(kind: string): AnyTransport {
    const transport = this.byKind.get(kind);
    if (!transport) throw new Error(`No outbound transport for endpoint kind ${kind}`);
    return transport;
  }

  /**
   * One process's sender: the claimed delivery read once into its message, then sent. Each kind's
   * state (FHIR tokens, MLLP connections) is made at its first attempt and kept by this sender.
   */
  sender(deps: TransportDeps): DeliverySender {
    const states = new Map<string, unknown>();
    return async (d, timeoutMs) => {
      const transport = this.of(d.kind);
      const open: OpenSecret = (column, sealed) => deps.secrets.open(sealed, { table: 'webhook_endpoints', column, id: d.endpoint_id });
      const built = transport.build(d, open);
      if ('cancel' in built) return built.cancel;
      if ('dead' in built) return { statusCode: null, durationMs: 0, error: built.dead, permanent: true };
      if (!states.has(d.kind)) states.set(d.kind, transport.newState());
      const to = { deliveryId: d.id, endpointId: d.endpoint_id, url: d.url, rules: outboundRules(deps.config, d.allow_private) };
      return transport.send(to, built.send, timeoutMs, states.get(d.kind));
    };
  }
}
