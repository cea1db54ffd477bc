import { z } from 'zod';

/** Every inbound webhook: `{id, type, occurred_at, data}`; `id` is the sender's event id. */
export const envelopeSchema = z.object({
  id: z.string().trim().min(1).max(200),
  type: z.string().min(1).max(100),
  occurred_at: z.iso.datetime({ offset: true }),
  data: z.record(z.string(), z.unknown()),
});

export type Envelope = z.infer<typeof envelopeSchema>;

/** Where an inbound event came from: a signed JSON webhook (ehr, voice) or an HL7 v2 message over MLLP (hl7). */
export type WebhookSource = 'ehr' | 'voice' | 'hl7';
