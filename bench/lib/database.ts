import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { startEmbeddedPostgres } from '../../src/db/embedded.js';

export interface BenchServer {
  adminUrl: string;
  embedded: boolean;
  stop(): Promise<void>;
}

/** A TCP port free on 127.0.0.1 right now. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
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

export interface BenchDatabase {
  url: string;
  drop(): Promise<void>;
}

/** A fresh database on the server, so runs never see each other's rows; drop() removes it. */
export async function createBenchDatabase(adminUrl: string, prefix: string): Promise<BenchDatabase> {
  const name = `clinigate_bench_${prefix}_${Date.now()}_${randomBytes(3).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const u = new URL(adminUrl);
  u.pathname = `/${name}`;
  return {
    url: u.toString(),
    drop: async () => {
      const c = new pg.Client({ connectionString: adminUrl });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`).catch(() => {});
      await c.end();
    },
  };
}
