import type { Bundle } from '@medplum/fhirtypes';
import { badRequest } from '../../lib/errors.js';
import { noteReadySchema } from '../../outbound-events/note-ready.js';
import { noteSignoffSchema } from '../../outbound-events/note-signoff.js';
import { refusedAs, type OutboundTransport } from '../outbound-webhooks/transport/outbound-transport.js';
import { resolveTarget } from '../outbound-webhooks/transport/ssrf-guard.js';
import { noteBundle } from './note-bundle.js';
import { noteSignoffBundle } from './note-signoff-bundle.js';
import { sendFhirNote } from './send-fhir.js';
import { PrivateKeyError, signingKey, SmartTokenCache, type SmartClient } from './smart-token.js';

/**
 * The FHIR transaction of a note event, or a string: why it is not theirs to send (the delivery
 * is cancelled). Throws for a note without its patient (a Condition needs its subject).
 */
export function fhirBundleOf(type: string, data: unknown): Bundle | string {
  if (type === 'note.ready') {
    const note = noteReadySchema.safeParse(data);
    return note.success ? noteBundle(note.data, new Date()) : 'note.ready payload lacks what a FHIR transaction needs';
  }
  if (type === 'note.signed' || type === 'note.amended') {
    const note = noteSignoffSchema.safeParse(data);
    return note.success ? noteSignoffBundle(note.data) : `${type} payload lacks what a FHIR transaction needs`;
  }
  return `${type} is not sent to fhir endpoints`;
}

/** A FHIR server's message: the transaction Bundle, and the SMART client that gets its token (its private key opened). */
export interface FhirMessage {
  bundle: Bundle;
  client: SmartClient;
  privateKey: string;
}

/** The `fhir` kind: a note event's transaction Bundle to a FHIR R4 server under SMART Backend Services (tokens cached per endpoint). */
export const fhirTransport: OutboundTransport<FhirMessage, SmartTokenCache> = {
  kind: 'fhir',
  build(d, open) {
    let bundle;
    try {
      bundle = fhirBundleOf(d.event_type, d.event_data);
    } catch (err) {
      return { dead: (err as Error).message }; // no patient: a Condition needs its subject
    }
    if (typeof bundle === 'string') return { cancel: bundle };
    const privateKey = open('auth_private_key', d.auth_private_key ?? '');
    return { send: { bundle, client: d.auth as unknown as SmartClient, privateKey } };
  },
  newState: () => new SmartTokenCache(),
  send: (to, message, timeoutMs, tokens) =>
    sendFhirNote({ url: to.url, ...message, cacheKey: to.endpointId, tokens, rules: to.rules, timeoutMs }),
  /** The base and the token URL must be reachable under the rules; the key must sign RS384 or ES384. */
  async checkDestination({ url, auth }, rules) {
    await refusedAs('url', resolveTarget(url, rules));
    if (!auth) return;
    await refusedAs('auth.token_url', resolveTarget(auth.token_url, rules));
    try {
      signingKey(auth.private_key);
    } catch (err) {
      if (err instanceof PrivateKeyError) throw badRequest(`auth.private_key: ${err.message}`);
      throw err;
    }
  },
};
