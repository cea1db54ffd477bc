import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { upsertCenterRow, upsertCenterRows } from '../../src/modules/centers/centers.repo.js';
import { centerSchema, type Center } from '../../src/modules/centers/centers.schema.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';
import { centerData } from './centers.builders.js';

/** EHR feeds resend whole catalogs: a center stored as sent is left as it is, a change still applies. */
describe('centers: an upsert of an unchanged center', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  const center = (): Center => centerSchema.parse(centerData());

  /** The stored row's version (xmin changes with every new row version) and its fields. */
  // SQL: the row version (xmin) is the point: an unchanged center writes no new row, which no API can show.
  const stored = async (id: string) =>
    (
      await t.deps.pool.query(
        `SELECT xmin::text AS version, updated_at AS "updatedAt", name, opening_hours AS hours FROM centers WHERE id = $1`,
        [id],
      )
    ).rows[0];

  for (const [how, upsert] of [
    ['in a batch (catalog events)', (c: Center) => upsertCenterRows(t.deps.pool, [c])],
    ['one at a time', (c: Center) => upsertCenterRow(t.deps.pool, c)],
  ] as const) {
    it(`${how}: writes no new row version and keeps updated_at; a changed field still applies`, async () => {
      const c = center();
      await upsert(c);
      const first = await stored(c.id);

      await upsert({ ...c });
      expect(await stored(c.id)).toEqual(first);

      await upsert({ ...c, name: 'Centro Norte (renamed)' });
      const renamed = await stored(c.id);
      expect(renamed.name).toBe('Centro Norte (renamed)');
      expect(renamed.version).not.toBe(first.version);
      expect(renamed.updatedAt.getTime()).toBeGreaterThan(first.updatedAt.getTime());

      // Opening hours alone changed (a JSON column): a change too.
      await upsert({
        ...c,
        name: 'Centro Norte (renamed)',
        openingHours: { ...c.openingHours, saturday: [{ opens: '10:00', closes: '12:00' }] },
      });
      const reopened = await stored(c.id);
      expect(reopened.version).not.toBe(renamed.version);
      expect(reopened.hours.saturday).toEqual([{ opens: '10:00', closes: '12:00' }]);
    });
  }
});
