import { fhirTransport } from './modules/fhir/fhir.transport.js';
import { hl7MllpTransport } from './modules/hl7/hl7-mllp.transport.js';
import { OutboundTransports, type AnyTransport } from './modules/outbound-webhooks/transport/outbound-transport.js';
import { webhookTransport } from './modules/outbound-webhooks/transport/webhook.transport.js';

/**
 * Every kind of outbound destination, each declared by the module that speaks its protocol
 * (`<kind>.transport.ts`: how a claimed delivery becomes its message and how it is sent), as
 * job-registry.ts lists the jobs. The delivery job knows none of them: it is given this list.
 */
export const TRANSPORTS: AnyTransport[] = [webhookTransport, hl7MllpTransport, fhirTransport];

export const transports = new OutboundTransports(TRANSPORTS);
