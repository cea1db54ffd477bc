import { randomUUID } from 'node:crypto';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withTransaction } from '../../src/db/transaction.js';
import { deleteCenter, deleteService, upsertCenter, upsertService } from '../../src/modules/centers/index.js';
import { startTestApp, TEST_API_KEYS, type TestApp } from '../helpers/test-app.js';

/** Each run makes its own centers in a city of its own, so filters see only them. */
describe('centers and services catalog', () => {
  let t: TestApp;
  const tag = randomUUID().slice(0, 8);
  const city = `Testville ${tag}`;
  const centerIds = ['a', 'b', 'c', 'd', 'e'].map((s) => `ctr-${tag}-${s}`);
  const center = (id: string, name: string, overrides: Record<string, unknown> = {}) => ({
    id,
    name,
    address: { line: `Calle Mayor ${name.length}`, city, postalCode: '28013', country: 'ES' },
    phone: '+34915550100',
    timezone: 'Europe/Madrid',
    openingHours: {
      monday: [
        { opens: '08:00', closes: '14:00' },
        { opens: '16:00', closes: '20:00' },
      ],
    },
    ...overrides,
  });

  beforeAll(async () => {
    t = await startTestApp();
    await withTransaction(t.deps.pool, async (tx) => {
      await upsertCenter(tx, center(centerIds[0], `Alpha Clinic ${tag}`));
      await upsertCenter(tx, center(centerIds[1], `Beta Health ${tag}`));
      await upsertCenter(
        tx,
        center(centerIds[2], `Gamma Clinic ${tag}`, { address: { line: 'Plaza 100%_Real 3', city, postalCode: '28014', country: 'ES' } }),
      );
      await upsertCenter(tx, center(centerIds[3], `Delta Care ${tag}`));
      await upsertCenter(
        tx,
        center(centerIds[4], `Epsilon Clinic ${tag}`, {
          address: { line: 'Elsewhere 1', city: `Othertown ${tag}`, postalCode: '08001', country: 'ES' },
        }),
      );
      await upsertService(tx, {
        id: `svc-${tag}-1`,
        centerId: centerIds[0],
        name: `Cardiology visit ${tag}`,
        specialty: `Cardio-${tag}`,
        durationMinutes: 30,
        languages: ['es', 'en'],
      });
      await upsertService(tx, {
        id: `svc-${tag}-2`,
        centerId: centerIds[0],
        name: `ECG ${tag}`,
        specialty: `Cardio-${tag}`,
        durationMinutes: 20,
      });
      await upsertService(tx, {
        id: `svc-${tag}-3`,
        centerId: centerIds[1],
        name: `Skin check ${tag}`,
        specialty: `Derm-${tag}`,
        durationMinutes: 15,
        languages: ['es'],
      });
    });
  });
  afterAll(() => t.close());

  const get = (path: string, query: Record<string, string> = {}, key = TEST_API_KEYS[0]) =>
    request(t.app).get(path).query(query).set('x-api-key', key);

  it('lists centers of a city in name order with the full shape', async () => {
    const res = await get('/api/v1/centers', { city: city.toUpperCase() });
    expect(res.status).toBe(200);
    expect(res.body.nextCursor).toBeNull();
    expect(res.body.data.map((c: { id: string }) => c.id)).toEqual([centerIds[0], centerIds[1], centerIds[3], centerIds[2]]);
    expect(res.body.data[0]).toEqual({
      id: centerIds[0],
      name: `Alpha Clinic ${tag}`,
      address: { line: expect.any(String), city, postalCode: '28013', country: 'ES' },
      phone: '+34915550100',
      timezone: 'Europe/Madrid',
      openingHours: {
        monday: [
          { opens: '08:00', closes: '14:00' },
          { opens: '16:00', closes: '20:00' },
        ],
        tuesday: [],
        wednesday: [],
        thursday: [],
        friday: [],
        saturday: [],
        sunday: [],
      },
      updatedAt: expect.any(String),
    });
  });

  it('q searches name and address, case-insensitive, with % and _ taken literally', async () => {
    const byName = await get('/api/v1/centers', { q: `clinic ${tag}` });
    expect(byName.body.data.map((c: { id: string }) => c.id)).toEqual([centerIds[0], centerIds[4], centerIds[2]]);
    const byAddress = await get('/api/v1/centers', { q: '100%_real' });
    expect(byAddress.body.data.map((c: { id: string }) => c.id)).toEqual([centerIds[2]]);
    const literal = await get('/api/v1/centers', { q: `%${tag}` });
    expect(literal.body.data).toEqual([]);
  });

  it('pages with limit and an opaque cursor until nextCursor is null', async () => {
    const seen: string[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const res = await get('/api/v1/centers', { city, limit: '2', ...(cursor ? { cursor } : {}) });
      expect(res.status).toBe(200);
      expect(res.body.data.length).toBeLessThanOrEqual(2);
      seen.push(...res.body.data.map((c: { id: string }) => c.id));
      cursor = res.body.nextCursor ?? undefined;
      pages++;
    } while (cursor);
    expect(pages).toBe(2);
    expect(seen).toEqual([centerIds[0], centerIds[1], centerIds[3], centerIds[2]]);
  });

  it.each([
    ['/api/v1/centers', { limit: 'abc' }, /limit/],
    ['/api/v1/centers', { limit: '0' }, /limit/],
    ['/api/v1/centers', { limit: '101' }, /limit/],
    ['/api/v1/centers', { cursor: 'not-a-cursor' }, /cursor/],
    ['/api/v1/centers/services', { cursor: Buffer.from('{"x":1}').toString('base64url') }, /cursor/],
    ['/api/v1/centers/services', { limit: '2.5' }, /limit/],
  ])('answers 400 for bad query values: %s %j', async (path, query, details) => {
    const res = await get(path, query);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ success: false, error: 'Bad Request', details: expect.stringMatching(details) });
  });

  it('repeated query parameters are 400', async () => {
    const res = await request(t.app).get(`/api/v1/centers?city=a&city=b`).set('x-api-key', TEST_API_KEYS[0]);
    expect(res.status).toBe(400);
    expect(res.body.details).toMatch(/city/);
  });

  it('lists services filtered by centerId, specialty and q, with pagination', async () => {
    const byCenter = await get('/api/v1/centers/services', { centerId: centerIds[0] });
    expect(byCenter.status).toBe(200);
    expect(byCenter.body.data).toEqual([
      {
        id: `svc-${tag}-1`,
        centerId: centerIds[0],
        name: `Cardiology visit ${tag}`,
        specialty: `Cardio-${tag}`,
        durationMinutes: 30,
        languages: ['es', 'en'],
        updatedAt: expect.any(String),
      },
      {
        id: `svc-${tag}-2`,
        centerId: centerIds[0],
        name: `ECG ${tag}`,
        specialty: `Cardio-${tag}`,
        durationMinutes: 20,
        languages: [],
        updatedAt: expect.any(String),
      },
    ]);
    const bySpecialty = await get('/api/v1/centers/services', { specialty: `derm-${tag}` });
    expect(bySpecialty.body.data.map((s: { id: string }) => s.id)).toEqual([`svc-${tag}-3`]);
    const byQ = await get('/api/v1/centers/services', { q: `ecg ${tag}` });
    expect(byQ.body.data.map((s: { id: string }) => s.id)).toEqual([`svc-${tag}-2`]);
    const page1 = await get('/api/v1/centers/services', { q: tag, limit: '2' });
    expect(page1.body.data).toHaveLength(2);
    const page2 = await get('/api/v1/centers/services', { q: tag, limit: '2', cursor: page1.body.nextCursor });
    expect(page2.body).toEqual({ data: [expect.objectContaining({ id: `svc-${tag}-3` })], nextCursor: null });
  });

  it('answers 401 without a key or with a wrong one; both rotation keys work', async () => {
    expect((await request(t.app).get('/api/v1/centers')).status).toBe(401);
    expect((await request(t.app).get('/api/v1/centers/services')).status).toBe(401);
    expect((await get('/api/v1/centers', {}, 'wrong')).status).toBe(401);
    expect((await get('/api/v1/centers', {}, TEST_API_KEYS[0])).status).toBe(200);
    expect((await get('/api/v1/centers/services', {}, TEST_API_KEYS[1])).status).toBe(200);
  });

  describe('catalog events (center.* / service.*)', () => {
    it('upsert updates in place; deleting a center removes its services', async () => {
      const id = `ctr-${tag}-x`;
      await upsertCenter(
        t.deps.pool,
        center(id, `Zeta ${tag}`, { address: { line: 'X 1', city: `Zcity ${tag}`, postalCode: '1', country: 'ES' } }),
      );
      await upsertCenter(
        t.deps.pool,
        center(id, `Zeta Renamed ${tag}`, { address: { line: 'X 1', city: `Zcity ${tag}`, postalCode: '1', country: 'ES' } }),
      );
      await upsertService(t.deps.pool, { id: `svc-${tag}-x`, centerId: id, name: 'X', specialty: 'Y', durationMinutes: 10 });
      const listed = await get('/api/v1/centers', { city: `Zcity ${tag}` });
      expect(listed.body.data.map((c: { name: string }) => c.name)).toEqual([`Zeta Renamed ${tag}`]);
      expect(await deleteCenter(t.deps.pool, { id })).toBe(true);
      expect(await deleteCenter(t.deps.pool, { id })).toBe(false);
      expect((await get('/api/v1/centers/services', { centerId: id })).body.data).toEqual([]);
      expect(await deleteService(t.deps.pool, { id: `svc-${tag}-x` })).toBe(false);
    });

    it('refuses event data that does not fit (422 naming the field)', async () => {
      await expect(upsertCenter(t.deps.pool, center(`ctr-${tag}-bad`, 'Bad', { phone: '12345' }))).rejects.toMatchObject({
        status: 422,
        details: expect.stringMatching(/phone/),
      });
      await expect(upsertCenter(t.deps.pool, center(`ctr-${tag}-bad`, 'Bad', { timezone: 'Mars/Olympus' }))).rejects.toMatchObject({
        status: 422,
        details: expect.stringMatching(/timezone/),
      });
      await expect(
        upsertService(t.deps.pool, { id: 's', centerId: `ctr-${tag}-none`, name: 'n', specialty: 's', durationMinutes: 5 }),
      ).rejects.toMatchObject({ status: 422, details: expect.stringMatching(/centerId/) });
      await expect(
        upsertService(t.deps.pool, { id: 's', centerId: centerIds[0], name: 'n', specialty: 's', durationMinutes: 0 }),
      ).rejects.toMatchObject({ status: 422, details: expect.stringMatching(/durationMinutes/) });
      await expect(deleteCenter(t.deps.pool, {})).rejects.toMatchObject({ status: 422, details: expect.stringMatching(/id is required/) });
    });
  });
});
