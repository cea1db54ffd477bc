import type { Principal } from './auth/bearer.js';

declare global {
  // eslint-disable-next-line @typescript-eslint/no-namespace
  namespace Express {
    interface Request {
      requestId: string;
      /** Set by bearer authentication on clinical operations. */
      principal?: Principal;
      /** `x-doctor` and `x-patient`, set by requireDoctor. */
      doctor?: string;
      patient?: string;
      /** The exact bytes received, kept for signature checks on webhook routes. */
      rawBody?: Buffer;
    }
  }
}

export {};
