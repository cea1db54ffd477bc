import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmbeddedPostgres } from '../../src/db/embedded.js';
import { freePort } from '../../src/lib/free-port.js';

/**
 * Shutdown stops the embedded cluster last: a connection still closing is waited for rather than
 * cut (a cut one logs 57P01 on its side), and one that outstays the wait is named.
 */
describe('embedded PostgreSQL stop', () => {
  let dir: string;
  let port: number;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'clinigate-embedded-stop-'));
    port = await freePort();
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  const connect = async (url: string, name: string) => {
    const client = new pg.Client({ connectionString: url, application_name: name });
    client.on('error', () => {}); // the fast shutdown of the second case terminates it
    await client.connect();
    return client;
  };

  it('waits for a connection that closes within the wait, and names one that does not', async () => {
    let db = await startEmbeddedPostgres(dir, port);
    const closing = await connect(db.connectionString, 'closing-soon');
    setTimeout(() => void closing.end(), 300);
    const started = Date.now();
    expect(await db.stop({ lingerMs: 5_000 })).toEqual([]);
    expect(Date.now() - started).toBeGreaterThanOrEqual(250);

    db = await startEmbeddedPostgres(dir, port);
    const lingering = await connect(db.connectionString, 'never-closes');
    expect(await db.stop({ lingerMs: 300 })).toEqual(['never-closes']);
    await lingering.end().catch(() => {});
  }, 60_000);
});
