import { randomUUID } from 'node:crypto';

/** A center as the EHR sends it (`center.upserted` data, the centers API body), under a fresh id. */
export function centerData(overrides: Record<string, unknown> = {}) {
  return {
    id: `ctr-${randomUUID().slice(0, 8)}`,
    name: 'Centro Norte',
    address: { line: 'Calle Mayor 1', city: 'Madrid', postalCode: '28013', country: 'ES' },
    phone: '+34910000000',
    timezone: 'Europe/Madrid',
    ...overrides,
  };
}
