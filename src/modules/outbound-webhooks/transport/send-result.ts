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
