import { randomUUID } from 'node:crypto';
import type { RequestListener } from 'node:http';
import request from 'supertest';
import { integrationSignature } from '../../src/modules/outbound-webhooks/transport/signing.js';
import { TEST_EHR_SECRET, TEST_VOICE_SECRET } from './test-app.js';

export { integrationSignature };

export function envelope(type: string, data: Record<string, unknown>, id = `evt-${randomUUID()}`) {
  return { id, type, occurred_at: new Date().toISOString(), data };
}

/** POSTs an inbound webhook with the exact bytes signed by the source's secret. */
export function postSigned(app: RequestListener, source: 'ehr' | 'voice', body: unknown, secret?: string) {
  const raw = typeof body === 'string' ? body : JSON.stringify(body);
  const key = secret ?? (source === 'ehr' ? TEST_EHR_SECRET : TEST_VOICE_SECRET);
  return request(app)
    .post(`/api/v1/webhooks/${source}`)
    .set('content-type', 'application/json')
    .set('x-integration-signature', integrationSignature(key, raw))
    .send(raw);
}

export function encounterData(overrides: Record<string, unknown> = {}) {
  return {
    group_id: `group-${randomUUID()}`,
    doctor_id: `dr-${randomUUID().slice(0, 8)}`,
    patient_id: `pt-${randomUUID().slice(0, 8)}`,
    transcript:
      "[doctor] hi, what brings you in today?\n[patient] i've had a cough and a fever for three days.\n" +
      '[doctor] any chest pain?\n[patient] no chest pain.\n[doctor] your temperature is 38.4 and lungs have crackles on the right.\n' +
      '[doctor] this looks like community acquired pneumonia. i will start amoxicillin 1 gram three times a day and see you in one week.',
    duration_seconds: 420,
    language: 'en',
    template: 'SOAP',
    ...overrides,
  };
}
