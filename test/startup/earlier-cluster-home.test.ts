import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { CLUSTERS_BASE } from '../../src/db/earlier-cluster-homes.js';
import { startEmbeddedPostgres } from '../../src/db/embedded.js';
import { freePort } from '../../src/lib/free-port.js';

const isRoot = process.getuid?.() === 0;

async function query<T extends pg.QueryResultRow>(url: string, sql: string): Promise<T[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<T>(sql)).rows;
  } finally {
    await client.end();
  }
}

/**
 * Versions before 2026-11-26 placed a root's cluster in /var/lib/clinigate/clusters/<hash> and
 * named it in DATA_DIR/pg-location.json: patient data outside the project folder. The next start
 * moves it into DATA_DIR/pg, its data intact, and leaves nothing behind.
 */
describe.skipIf(!isRoot)('a cluster an earlier version placed outside DATA_DIR', () => {
  it('is moved home into DATA_DIR/pg at the next start, with its data', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'clinigate-earlier-'));
    const earlier = join(CLUSTERS_BASE, `test-${process.pid}-${Date.now()}`);
    try {
      const first = await startEmbeddedPostgres(dataDir, await freePort());
      await query(first.connectionString, `CREATE TABLE kept (v text); INSERT INTO kept VALUES ('before the move')`);
      await first.stop();
      // The earlier layout, as those versions left it.
      mkdirSync(CLUSTERS_BASE, { recursive: true });
      execFileSync('mv', [join(dataDir, 'pg'), earlier]);
      writeFileSync(join(dataDir, 'pg-location.json'), JSON.stringify({ data_dir: dataDir, cluster: earlier }));

      const again = await startEmbeddedPostgres(dataDir, await freePort());
      try {
        expect(again.clusterDir).toBe(join(dataDir, 'pg'));
        // SQL: the data of the moved cluster itself, before any service runs on it.
        expect(await query(again.connectionString, 'SELECT v FROM kept')).toEqual([{ v: 'before the move' }]);
      } finally {
        await again.stop();
      }
      expect(existsSync(earlier)).toBe(false);
      expect(existsSync(join(dataDir, 'pg-location.json'))).toBe(false);
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
      rmSync(earlier, { recursive: true, force: true });
    }
  }, 120_000);
});
