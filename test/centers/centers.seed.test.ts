import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { createPool } from '../../src/db/pool.js';
import { CATALOG_FILE, seedCatalog } from '../../src/modules/centers/seed-catalog.js';
import { catalogFileSchema } from '../../src/modules/centers/centers.schema.js';
import { isolatedDatabase } from '../helpers/isolated-database.js';

describe('centers seed', () => {
  it('config/centers.json is valid: 5-8 centers, services of existing centers', () => {
    const catalog = catalogFileSchema.parse(JSON.parse(readFileSync(CATALOG_FILE, 'utf8')));
    expect(catalog.centers.length).toBeGreaterThanOrEqual(5);
    expect(catalog.centers.length).toBeLessThanOrEqual(8);
    const ids = new Set(catalog.centers.map((c) => c.id));
    expect(ids.size).toBe(catalog.centers.length);
    for (const s of catalog.services) expect(ids.has(s.centerId)).toBe(true);
  });

  it('seeds an empty catalog once, also when processes start at once, and never again', async () => {
    const db = await isolatedDatabase('centers');
    const pool = createPool(db.url);
    try {
      const inserted = await Promise.all([seedCatalog(pool), seedCatalog(pool), seedCatalog(pool)]);
      const catalog = catalogFileSchema.parse(JSON.parse(readFileSync(CATALOG_FILE, 'utf8')));
      expect(inserted.sort()).toEqual([0, 0, catalog.centers.length]);
      // SQL: the seeding is called on a pool with no app to ask, and concurrent seeds must store the catalog once.
      const counts = async () =>
        (await pool.query('SELECT (SELECT count(*) FROM centers)::int AS c, (SELECT count(*) FROM center_services)::int AS s')).rows[0];
      expect(await counts()).toEqual({ c: catalog.centers.length, s: catalog.services.length });
      // After a deletion the catalog is the events' business: no re-seed.
      await pool.query(`DELETE FROM centers WHERE id = $1`, [catalog.centers[0].id]);
      expect(await seedCatalog(pool)).toBe(0);
      expect((await counts()).c).toBe(catalog.centers.length - 1);
    } finally {
      await pool.end();
      await db.drop();
    }
  });
});
