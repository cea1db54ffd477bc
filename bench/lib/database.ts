import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createDatabase, type CreatedDatabase } from '../../src/db/create-database.js';
import { startEmbeddedPostgres } from '../../src/db/embedded.js';
import { freePort } from '../../src/lib/free-port.js';

export interface BenchServer {
  adminUrl: string;
  embedded: boolean;
  stop(): Promise<void>;
}

/** DATABASE_URL's server when set; else an embedded PostgreSQL in a temp dir on a free port (removed at stop). */
export async function openBenchServer(log: (line: string) => void = () => {}): Promise<BenchServer> {
  const url = process.env.DATABASE_URL;
  if (url) return { adminUrl: url, embedded: false, stop: async () => {} };
  const dir = mkdtempSync(join(tmpdir(), 'clinigate-bench-pg-'));
  const started = performance.now();
  const db = await startEmbeddedPostgres(dir, await freePort());
  log(`embedded PostgreSQL up in ${Math.round(performance.now() - started)} ms (${dir})`);
  return {
    adminUrl: db.connectionString,
    embedded: true,
    stop: async () => {
      await db.stop().catch(() => {});
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

export type BenchDatabase = CreatedDatabase;

/** A fresh database on the server, so runs never see each other's rows; drop() removes it. */
export const createBenchDatabase = (adminUrl: string, prefix: string) => createDatabase(adminUrl, `clinigate_bench_${prefix}`);
