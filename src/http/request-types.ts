import type { KeyPrincipal } from './auth/api-key.js';
import type { Principal } from './auth/bearer.js';
import type { InboundSender } from './inbound-sender.js';

declare global {
  // eslint-disable-next-line @typescript-eslint/no-namespace
  namespace Express {
    interface Request {
      requestId: string;
      /** Set by bearer authentication on clinical operations. */
      principal?: Principal;
      /** Set by API key authentication: the key's name (or fingerprint) and whether it is an operator key. */
      apiKey?: KeyPrincipal;
      /** The caller's `x-request-id`, kept beside the service's own request id. */
      clientRequestId?: string;
      /** `x-doctor` and `x-patient`, set by requireDoctor. */
      doctor?: string;
      patient?: string;
      /** The integration an inbound webhook was posted by (`/api/v1/webhooks/{source}/{integrationId}`). */
      integration?: InboundSender;
      /** The exact bytes received, kept for signature checks on webhook routes. */
      rawBody?: Buffer;
    }
  }
}

export {};
