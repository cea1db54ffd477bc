import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isolatedDatabase, startReceiver, verifySignatures, type Receiver } from '../helpers/receiver.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';
import { newCaller, type Caller } from '../helpers/tokens.js';
import { patchNote, postNote } from './notes.builders.js';
import { signNote } from './signoff.builders.js';

describe('note.signed and note.amended to webhook endpoints (standardwebhooks-verifying receivers)', () => {
  let t: TestApp;
  let db: Awaited<ReturnType<typeof isolatedDatabase>>;
  let caller: Caller;
  let full: Receiver;
  let thin: Receiver;
  let fullSecret: string;
  let thinSecret: string;

  beforeAll(async () => {
    db = await isolatedDatabase();
    t = await startTestApp({ workers: true, env: { DATABASE_URL: db.url } });
    caller = await newCaller();
    full = await startReceiver();
    thin = await startReceiver();
    const subscribe = (url: string, extra: Record<string, unknown>) =>
      request(t.app)
        .post('/v1/webhook-endpoints')
        .set(caller.headers)
        .send({ url, events: ['note.signed', 'note.amended'], ...extra });
    const a = await subscribe(full.url, {});
    const b = await subscribe(thin.url, { thin: true });
    expect([a.status, b.status]).toEqual([201, 201]);
    fullSecret = a.body.secret;
    thinSecret = b.body.secret;
  });
  afterAll(async () => {
    await t.close();
    await full.stop();
    await thin.stop();
    await db.drop();
  });

  const delivered = async (r: Receiver, type: string, noteId: string) => {
    await expect.poll(() => r.received.some((x) => x.json.type === type && x.json.data.note_id === noteId), { timeout: 20_000 }).toBe(true);
    return r.received.find((x) => x.json.type === type && x.json.data.note_id === noteId)!;
  };

  it('a signature and an amendment reach the subscriber signed, with the signature, codes and content; thin ones get ids only', async () => {
    const note = (await postNote(t, caller, {}, { 'x-patient': 'pt-991' })).body;
    const signed = await signNote(t, caller, note.id, { codes: ['J18.9'] }, { 'if-match': '"1"' });
    expect(signed.status).toBe(200);
    const amended = await patchNote(t, caller, note.id, {
      ai_generated_content: { plan: 'Review in 5 days.' },
      amendment_reason: 'Review date',
    });
    expect(amended.status).toBe(200);

    const s = await delivered(full, 'note.signed', note.id);
    verifySignatures(fullSecret, s);
    expect(s.json.data).toEqual({
      note_id: note.id,
      group_id: caller.groupId,
      version: 2,
      status: 'signed',
      patient_id: 'pt-991',
      // A note written through the API has no pipeline event, so no namespace for its patient id.
      patient_authority: null,
      patient_system: null,
      visit_id: null,
      doctor_id: caller.doctor,
      signed_by: caller.userId,
      signed_at: signed.body.signed_at,
      signed_codes: [{ code: 'J18.9', description: 'Pneumonia, unspecified organism' }],
      dropped_codes: [],
      amendment_reason: null,
      changed_at: signed.body.updated_at,
      template: 'SOAP',
      ai_generated_content: note.ai_generated_content,
    });
    const a = await delivered(full, 'note.amended', note.id);
    verifySignatures(fullSecret, a);
    expect(a.json.data).toMatchObject({
      version: 3,
      status: 'amended',
      signed_by: caller.userId,
      signed_at: signed.body.signed_at,
      amendment_reason: 'Review date',
      changed_at: amended.body.updated_at,
      ai_generated_content: { plan: 'Review in 5 days.' },
    });

    for (const type of ['note.signed', 'note.amended']) {
      const x = await delivered(thin, type, note.id);
      verifySignatures(thinSecret, x);
      expect(x.json.data).toEqual({ note_id: note.id, group_id: caller.groupId });
    }
  });
});
