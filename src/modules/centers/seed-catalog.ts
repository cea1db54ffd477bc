import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import type { Pool } from '../../db/pool.js';
import { withTransaction } from '../../db/transaction.js';
import { countCenters, lockCatalogSeed, upsertCenterRow, upsertServiceRow } from './centers.repo.js';
import { catalogFileSchema } from './centers.schema.js';

/** config/centers.json, found from src/ and from dist/ alike. */
export const CATALOG_FILE = fileURLToPath(new URL('../../../config/centers.json', import.meta.url));

/**
 * Fills the centers catalog from the seed file when the table is empty, and only then: after
 * that, inbound `center.*` / `service.*` events own it. Safe when processes start at once.
 * Returns how many centers were inserted (0 when the catalog already had some).
 */
export async function seedCatalog(pool: Pool, file = CATALOG_FILE): Promise<number> {
  const catalog = catalogFileSchema.parse(JSON.parse(await readFile(file, 'utf8')));
  return withTransaction(pool, async (tx) => {
    await lockCatalogSeed(tx);
    if ((await countCenters(tx)) > 0) return 0;
    for (const center of catalog.centers) await upsertCenterRow(tx, center);
    for (const service of catalog.services) await upsertServiceRow(tx, service);
    return catalog.centers.length;
  });
}
