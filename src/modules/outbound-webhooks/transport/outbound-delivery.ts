import type { Hl7Message } from '@medplum/core';
import type { Bundle } from '@medplum/fhirtypes';
import type { AppDeps } from '../../../app-deps.js';
import type { SmartClient } from '../../fhir/smart-token.js';
import type { ClaimedDelivery } from '../deliveries/webhook-deliveries.repo.js';
import { fhirBundleOf, hl7MessagesOf } from './note-by-kind.js';
import { messageBody } from './payload.js';
import { outboundRules, type OutboundRules } from './ssrf-guard.js';

interface Common {
  /** The delivery's id: the Standard Webhooks message id; HL7 control ids derive from it. */
  deliveryId: string;
  endpointId: string;
  url: string;
  rules: OutboundRules;
}

/**
 * One message, built, and where it goes, with its secrets opened: all a transport is given, never
 * a database row. A webhook's JSON body, an HL7 destination's messages, a FHIR server's Bundle.
 */
export type OutboundDelivery =
  | (Common & { kind: 'webhook'; secret: string; previousSecret?: string; body: string })
  | (Common & { kind: 'hl7-mllp'; messages: Hl7Message[] })
  | (Common & { kind: 'fhir'; client: SmartClient; privateKey: string; bundle: Bundle });

/** Why a delivery is not sent: cancelled (`cancel`), or dead at once (`dead`: a note without its patient for FHIR). */
export type NotSent = { cancel: string } | { dead: string };

/**
 * A claimed delivery read into the message its endpoint's kind sends (note-by-kind.ts builds the
 * HL7 messages and FHIR Bundles of the note events), or why it is not sent.
 */
export function outboundDeliveryOf(deps: Pick<AppDeps, 'config' | 'secrets'>, d: ClaimedDelivery): OutboundDelivery | NotSent {
  const common = { deliveryId: d.id, endpointId: d.endpoint_id, url: d.url, rules: outboundRules(deps.config, d.allow_private) };
  if (d.kind === 'webhook') {
    return {
      ...common,
      kind: 'webhook',
      secret: deps.secrets.open(d.secret, { table: 'webhook_endpoints', column: 'secret', id: d.endpoint_id }),
      ...(d.previous_secret
        ? {
            previousSecret: deps.secrets.open(d.previous_secret, {
              table: 'webhook_endpoints',
              column: 'previous_secret',
              id: d.endpoint_id,
            }),
          }
        : {}),
      body: messageBody({ id: d.event_id, type: d.event_type, created_at: d.event_created_at, data: d.event_data }, d.thin),
    };
  }
  if (d.kind === 'hl7-mllp') {
    const receiver = { application: d.receiving_application ?? null, facility: d.receiving_facility ?? null };
    const messages = hl7MessagesOf(d.event_type, d.event_data, d.id, receiver);
    return typeof messages === 'string' ? { cancel: messages } : { ...common, kind: 'hl7-mllp', messages };
  }
  let bundle;
  try {
    bundle = fhirBundleOf(d.event_type, d.event_data);
  } catch (err) {
    return { dead: (err as Error).message }; // no patient: a Condition needs its subject
  }
  if (typeof bundle === 'string') return { cancel: bundle };
  return {
    ...common,
    kind: 'fhir',
    client: d.auth as unknown as SmartClient,
    privateKey: deps.secrets.open(d.auth_private_key ?? '', { table: 'webhook_endpoints', column: 'auth_private_key', id: d.endpoint_id }),
    bundle,
  };
}
