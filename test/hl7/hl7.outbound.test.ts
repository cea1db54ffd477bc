import { generateKeyPairSync, randomUUID } from 'node:crypto';
import type { Condition, DocumentReference } from '@medplum/fhirtypes';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { unescapeHl7 } from '../../src/modules/hl7/hl7-escape.js';
import { startWebhookDeliveryLoops } from '../../src/modules/outbound-webhooks/delivery-job/webhook-delivery.job.js';
import { recordEvent } from '../../src/outbound-events/outbox.repo.js';
import { startOutboxDispatcher, type OutboxDispatcher } from '../../src/modules/outbound-webhooks/fan-out/outbox-dispatcher.js';
import { isolatedDatabase } from '../helpers/receiver.js';
import { startTestApp, TEST_OPERATOR_KEY, type TestApp } from '../helpers/test-app.js';
import { FhirStandIn } from './fhir-stand-in.js';
import { MllpDestination } from './mllp-destination.js';

const OPERATOR = { 'x-api-key': TEST_OPERATOR_KEY };
const POLL = { timeout: 20_000, interval: 100 };

function noteReady(groupId: string, overrides: Record<string, unknown> = {}) {
  return {
    event_id: `C${randomUUID().slice(0, 8)}`,
    correlation_id: randomUUID(),
    group_id: groupId,
    patient_id: 'MRN-4711',
    doctor_id: 'DR42',
    visit_id: 'V-1234',
    note_id: randomUUID(),
    transcription_id: randomUUID(),
    thread_id: randomUUID(),
    run_id: randomUUID(),
    codify_run_id: randomUUID(),
    template: 'SOAP',
    ai_generated_content: {
      subjective: 'Cough and fever for 3 days | worse at night.\nNo chest pain.',
      objective: 'T 38.4 ^C; crackles right base & dullness.',
      assessment: 'Community acquired pneumonia.',
      plan: 'Amoxicillin 1 g three times a day ~ review in 1 week.',
    },
    final_code_assessments: [
      { code: 'J18.9', description: 'Pneumonia, unspecified organism', justification: 'x', confidence_percent: 90 },
      { code: 'R50.9', description: 'Fever, unspecified', justification: 'y', confidence_percent: 70 },
    ],
    ...overrides,
  };
}

describe('outbound note.ready to HL7 v2 (MLLP) and FHIR R4 destinations', () => {
  let db: Awaited<ReturnType<typeof isolatedDatabase>>;
  let t: TestApp;
  let dispatcher: OutboxDispatcher;

  beforeAll(async () => {
    db = await isolatedDatabase();
    t = await startTestApp({ env: { DATABASE_URL: db.url } });
    // A short per-attempt timeout, so "no ACK" is seen in seconds (the service uses 15 s).
    await startWebhookDeliveryLoops(t.deps, { timeoutMs: 1_500 });
    dispatcher = startOutboxDispatcher(t.deps, { sweepIntervalMs: 500 });
  });
  afterAll(async () => {
    dispatcher?.stop();
    await t?.close();
    await db?.drop();
  });

  const createEndpoint = async (body: Record<string, unknown>) => {
    const res = await request(t.app).post('/api/v1/webhook-endpoints').set(OPERATOR).send(body);
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return res.body as { id: string; kind: string; auth: unknown };
  };
  const deliveries = async (endpointId: string) =>
    (await request(t.app).get(`/api/v1/webhook-endpoints/${endpointId}/deliveries`).set(OPERATOR)).body as Array<{
      id: string;
      status: string;
      attempts: Array<{ error: string | null }>;
    }>;
  const publish = async (data: ReturnType<typeof noteReady>) => {
    await recordEvent(t.deps.pool, { type: 'note.ready', groupId: data.group_id, data });
  };

  it('refuses what a kind cannot take with a clear 400', async () => {
    const bad = async (body: Record<string, unknown>, pattern: RegExp) => {
      const res = await request(t.app).post('/api/v1/webhook-endpoints').set(OPERATOR).send(body);
      expect(res.status, JSON.stringify(res.body)).toBe(400);
      expect(res.body).toMatchObject({ success: false, error: 'Bad Request' });
      expect(res.body.details).toMatch(pattern);
    };
    await bad({ kind: 'hl7-mllp', url: 'http://127.0.0.1:2575' }, /mllp:\/\/host:port/);
    await bad({ kind: 'hl7-mllp', url: 'mllp://127.0.0.1' }, /mllp:\/\/host:port/);
    await bad({ kind: 'hl7-mllp', url: 'mllp://127.0.0.1:2575', events: ['run.failed'] }, /note.ready, note.signed, note.amended only/);
    await bad({ kind: 'hl7-mllp', url: 'mllp://127.0.0.1:2575', thin: true }, /whole note/);
    await bad({ kind: 'fhir', url: 'http://127.0.0.1:9/fhir' }, /auth/);
    await bad(
      {
        kind: 'fhir',
        url: 'http://127.0.0.1:9/fhir',
        auth: { token_url: 'http://127.0.0.1:9/t', client_id: 'c', private_key: 'not a key' },
      },
      /private_key/,
    );
    const weak = generateKeyPairSync('ec', { namedCurve: 'prime256v1' }).privateKey.export({ format: 'pem', type: 'pkcs8' }) as string;
    await bad(
      { kind: 'fhir', url: 'http://127.0.0.1:9/fhir', auth: { token_url: 'http://127.0.0.1:9/t', client_id: 'c', private_key: weak } },
      /ES384/,
    );
    await bad(
      { kind: 'webhook', url: 'http://127.0.0.1:9/x', auth: { token_url: 'http://127.0.0.1:9/t', client_id: 'c', private_key: weak } },
      /only for a fhir/,
    );
    await bad({ kind: 'telex', url: 'http://127.0.0.1:9/x' }, /kind/);
  });

  it('sends an MDM^T02 (TXA-12 the note id, OBX lines per section) and an ADT^A08 with DG1 codes; AA delivers', async () => {
    const dest = await MllpDestination.start();
    const group = `group-${randomUUID()}`;
    const endpoint = await createEndpoint({ kind: 'hl7-mllp', url: dest.url, group_id: group });
    expect(endpoint).toMatchObject({ kind: 'hl7-mllp', auth: null, events: ['note.ready', 'note.signed', 'note.amended'] });
    const data = noteReady(group);
    await publish(data);
    await expect.poll(async () => (await deliveries(endpoint.id))[0]?.status, POLL).toBe('delivered');
    await dest.stop();

    const [mdm] = dest.of('MDM^T02');
    const m = mdm.message;
    expect(dest.received.map((r) => r.message.header.getComponent(9, 1))).toEqual(['MDM', 'ADT']);
    expect(m.getSegment('TXA')!.getComponent(12, 1)).toBe(data.note_id);
    expect(m.getSegment('TXA')!.getComponent(2, 1)).toBe('SOAP');
    expect(m.getSegment('TXA')!.getComponent(17, 1)).toBe('DO');
    expect(m.getSegment('PID')!.getComponent(3, 1)).toBe('MRN-4711');
    expect(m.getSegment('PV1')!.getComponent(19, 1)).toBe('V-1234');
    expect(m.getSegment('EVN')!.getComponent(1, 1)).toBe('T02');
    // Each section's lines come back, in order, once the escapes are resolved.
    const bySection = new Map<string, string[]>();
    for (const obx of m.getAllSegments('OBX')) {
      expect(obx.getComponent(2, 1)).toBe('TX');
      const section = obx.getComponent(3, 1).toLowerCase();
      bySection.set(section, [...(bySection.get(section) ?? []), unescapeHl7(obx.getField(5).toString(), m.context)]);
    }
    for (const [section, text] of Object.entries(data.ai_generated_content)) expect(bySection.get(section)!.join('\n')).toBe(text);

    const [adt] = dest.of('ADT^A08');
    const dg1 = adt.message.getAllSegments('DG1');
    expect(dg1.map((s) => [s.getComponent(3, 1), s.getComponent(3, 3), s.getComponent(6, 1)])).toEqual([
      ['J18.9', 'I10', 'W'],
      ['R50.9', 'I10', 'W'],
    ]);
    expect(adt.message.getSegment('PID')!.getComponent(3, 1)).toBe('MRN-4711');
  });

  it('retries on AE and on no answer, keeping the control ids; AR is dead at once', async () => {
    const dest = await MllpDestination.start();
    const group = `group-${randomUUID()}`;
    const endpoint = await createEndpoint({ kind: 'hl7-mllp', url: dest.url, group_id: group });
    dest.mode = 'AE';
    await publish(noteReady(group, { final_code_assessments: [] }));
    await expect.poll(() => dest.received.length, POLL).toBeGreaterThanOrEqual(1);
    dest.mode = 'silent';
    await expect.poll(() => dest.received.length, POLL).toBeGreaterThanOrEqual(2);
    dest.mode = 'AA';
    await expect.poll(async () => (await deliveries(endpoint.id))[0]?.status, POLL).toBe('delivered');
    const [delivery] = await deliveries(endpoint.id);
    const errors = delivery.attempts.map((a) => a.error);
    expect(errors[0]).toMatch(/MDM\^T02 answered AE/);
    expect(errors[1]).toMatch(/no ACK within 1500 ms/);
    expect(errors.at(-1)).toBeNull();
    expect(new Set(dest.received.map((r) => r.message.header.getComponent(10, 1))).size).toBe(1);

    const group2 = `group-${randomUUID()}`;
    const refusing = await createEndpoint({ kind: 'hl7-mllp', url: dest.url, group_id: group2 });
    dest.mode = 'AR';
    await publish(noteReady(group2));
    await expect.poll(async () => (await deliveries(refusing.id))[0]?.status, POLL).toBe('dead');
    const [dead] = await deliveries(refusing.id);
    expect(dead.attempts).toHaveLength(1);
    expect(dead.attempts[0].error).toMatch(/answered AR/);
    await dest.stop();
  }, 60_000);

  for (const keyType of ['rsa', 'ec'] as const) {
    it(`posts a transaction Bundle valid against R4 under a ${keyType === 'rsa' ? 'RS384' : 'ES384'} client assertion; a replay duplicates nothing`, async () => {
      const pair =
        keyType === 'rsa' ? generateKeyPairSync('rsa', { modulusLength: 2048 }) : generateKeyPairSync('ec', { namedCurve: 'secp384r1' });
      const clientId = `clinigate-${randomUUID().slice(0, 8)}`;
      const fhir = await new FhirStandIn(clientId, pair.publicKey).start();
      const group = `group-${randomUUID()}`;
      const privateKey = pair.privateKey.export({ format: 'pem', type: 'pkcs8' }) as string;
      const endpoint = await createEndpoint({
        kind: 'fhir',
        url: fhir.base,
        group_id: group,
        auth: { token_url: fhir.tokenUrl, client_id: clientId, private_key: privateKey },
      });
      expect(endpoint.auth).toEqual({ token_url: fhir.tokenUrl, client_id: clientId });
      const listed = await request(t.app).get('/api/v1/webhook-endpoints').set(OPERATOR);
      expect(JSON.stringify(listed.body)).not.toContain('PRIVATE KEY');
      // SQL: the guarantee is that the private key is sealed at rest (the API never shows it).
      const row = await t.deps.pool.query(`SELECT auth_private_key FROM webhook_endpoints WHERE id = $1`, [endpoint.id]);
      expect(row.rows[0].auth_private_key).not.toContain('PRIVATE KEY');

      const first = noteReady(group);
      const second = noteReady(group, {
        final_code_assessments: [{ code: 'E11.9', description: 'Type 2 diabetes mellitus without complications' }],
      });
      await publish(first);
      await publish(second);
      await expect.poll(async () => (await deliveries(endpoint.id)).map((d) => d.status).join(), POLL).toBe('delivered,delivered');
      expect(fhir.tokensIssued).toBe(1); // cached between deliveries
      expect(fhir.refusedTokens).toEqual([]);

      const docs = fhir.ofType<DocumentReference>('DocumentReference');
      const conditions = fhir.ofType<Condition>('Condition');
      expect(docs).toHaveLength(2);
      expect(conditions).toHaveLength(3);
      const doc = docs.find((d) => d.identifier?.[0].value === `urn:uuid:${first.note_id}`)!;
      expect(doc).toMatchObject({
        docStatus: 'preliminary',
        subject: { identifier: { value: 'MRN-4711' } },
        context: { encounter: [{ identifier: { value: 'V-1234' } }] },
      });
      expect(doc.type!.coding![0]).toMatchObject({ system: 'http://loinc.org', code: '11506-3' });
      expect(doc.content[0].attachment.contentType).toMatch(/^text\/plain/);
      expect(Buffer.from(doc.content[0].attachment.data!, 'base64').toString()).toContain('Community acquired pneumonia.');
      expect(conditions.map((c) => c.code!.coding![0].code).sort()).toEqual(['E11.9', 'J18.9', 'R50.9']);
      for (const c of conditions) {
        expect(c.code!.coding![0].system).toBe('http://hl7.org/fhir/sid/icd-10-cm');
        expect(c.category![0].coding![0].code).toBe('encounter-diagnosis');
      }

      // Replay: the server sees the transaction again, and its conditional creates make nothing new.
      const [latest] = await deliveries(endpoint.id);
      expect((await request(t.app).post(`/api/v1/webhook-deliveries/${latest.id}/replay`).set(OPERATOR)).status).toBe(202);
      await expect.poll(() => fhir.transactions.length, POLL).toBe(3);
      expect(fhir.ofType('DocumentReference')).toHaveLength(2);
      expect(fhir.ofType('Condition')).toHaveLength(3);
      await fhir.stop();
    });
  }

  it('seals a FHIR private key stored in plain text before encryption was on, at the next start', async () => {
    const id = randomUUID();
    const pem = generateKeyPairSync('ec', { namedCurve: 'secp384r1' }).privateKey.export({ format: 'pem', type: 'pkcs8' }) as string;
    await t.deps.pool.query(
      `INSERT INTO webhook_endpoints (id, url, secret, allow_private, kind, auth, auth_private_key, events, status)
       VALUES ($1, 'http://127.0.0.1:9/fhir', 'whsec_plain', true, 'fhir', '{"token_url":"http://127.0.0.1:9/t","client_id":"c"}', $2, '{note.ready}', 'disabled')`,
      [id, pem],
    );
    const again = await startTestApp({ env: { DATABASE_URL: db.url } });
    try {
      // SQL: the guarantee is that a key stored in clear is sealed at start (the API never shows it).
      const stored = (await t.deps.pool.query(`SELECT auth_private_key FROM webhook_endpoints WHERE id = $1`, [id])).rows[0]
        .auth_private_key as string;
      expect(stored).toMatch(/^enc:v2:[0-9a-f]{8}:/);
      expect(again.deps.secrets.open(stored, { table: 'webhook_endpoints', column: 'auth_private_key', id })).toBe(pem);
    } finally {
      await again.close();
    }
  });

  it('gets no token with an assertion the server cannot verify, and retries; a 503 is retried too', async () => {
    const registered = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const other = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const fhir = await new FhirStandIn('client-x', registered.publicKey).start();
    const group = `group-${randomUUID()}`;
    const endpoint = await createEndpoint({
      kind: 'fhir',
      url: fhir.base,
      group_id: group,
      auth: { token_url: fhir.tokenUrl, client_id: 'client-x', private_key: other.privateKey.export({ format: 'pem', type: 'pkcs8' }) },
    });
    await publish(noteReady(group));
    await expect.poll(async () => (await deliveries(endpoint.id))[0]?.attempts.length ?? 0, POLL).toBeGreaterThanOrEqual(1);
    const [delivery] = await deliveries(endpoint.id);
    expect(delivery.attempts[0].error).toMatch(/token: token endpoint answered HTTP 401 \(invalid_client\)/);
    expect(fhir.refusedTokens[0]).toMatch(/signature/);
    expect(fhir.transactions).toHaveLength(0);

    const group2 = `group-${randomUUID()}`;
    const good = await createEndpoint({
      kind: 'fhir',
      url: fhir.base,
      group_id: group2,
      auth: {
        token_url: fhir.tokenUrl,
        client_id: 'client-x',
        private_key: registered.privateKey.export({ format: 'pem', type: 'pkcs8' }),
      },
    });
    fhir.failWith = 503;
    await publish(noteReady(group2));
    await expect.poll(async () => (await deliveries(good.id))[0]?.attempts.length ?? 0, POLL).toBeGreaterThanOrEqual(1);
    fhir.failWith = undefined;
    await expect.poll(async () => (await deliveries(good.id))[0]?.status, POLL).toBe('delivered');
    expect((await deliveries(good.id))[0].attempts[0].error).toBe('HTTP 503');
    await fhir.stop();
  });

  it('the stand-in does refuse a resource that is not valid R4 (400, OperationOutcome): such a delivery is dead', async () => {
    const pair = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const fhir = await new FhirStandIn('client-y', pair.publicKey).start();
    const group = `group-${randomUUID()}`;
    const endpoint = await createEndpoint({
      kind: 'fhir',
      url: fhir.base,
      group_id: group,
      auth: { token_url: fhir.tokenUrl, client_id: 'client-y', private_key: pair.privateKey.export({ format: 'pem', type: 'pkcs8' }) },
    });
    // A code with a space is not a valid FHIR `code` (R4 regex [^\s]+(\s[^\s]+)*, no leading space).
    await publish(noteReady(group, { final_code_assessments: [{ code: ' J18.9', description: 'bad' }] }));
    await expect.poll(async () => (await deliveries(endpoint.id))[0]?.status, POLL).toBe('dead');
    expect((await deliveries(endpoint.id))[0].attempts[0].error).toBe('HTTP 400');
    expect(fhir.transactions).toHaveLength(0);
    await fhir.stop();
  });
});
