import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { startEmbeddedPostgres } from '../../src/db/embedded.js';
import { migrate } from '../../src/db/migrate.js';
import { createPool } from '../../src/db/pool.js';
import { freePort } from '../../src/lib/free-port.js';
import { cleanEnv, signalGroup, spawnProcess, waitForHttp, type Spawned } from '../helpers/process.js';
import { testEnv } from '../helpers/test-app.js';

/**
 * A PostgreSQL server of the test's own (embedded, temporary directory), migrated. Four service
 * processes hold up to ~20 connections each (pool, pg-boss, LISTEN): on the shared test server,
 * beside the other test files, they would exhaust its 100 connections.
 */
export async function ownDatabase(): Promise<{ url: string; stop(): Promise<void> }> {
  const dir = mkdtempSync(join(tmpdir(), 'clinigate-scale-pg-'));
  const port = await freePort();
  let server = await startEmbeddedPostgres(dir, port);
  const admin = new pg.Client({ connectionString: server.connectionString });
  await admin.connect();
  await admin.query(`ALTER SYSTEM SET max_connections = 300`);
  await admin.end();
  // max_connections takes effect on restart; the data directory persists.
  await server.stop();
  server = await startEmbeddedPostgres(dir, port);
  const pool = createPool(server.connectionString, 2);
  await migrate(pool);
  await pool.end();
  return {
    url: server.connectionString,
    stop: async () => {
      await server.stop().catch(() => {});
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

export interface Member {
  name: string;
  role: 'api' | 'worker';
  proc: Spawned;
  /** http://127.0.0.1:PORT for API members. */
  url?: string;
}

/**
 * Service processes as `npm start` runs them (node --import tsx src/main.ts), each in its own
 * process group, on one database with the test secrets. Workers have no HTTP: they are ready once
 * the start-up banner (printed after the workers start) appears.
 */
export class Cluster {
  readonly members: Member[] = [];
  private readonly dataDir = mkdtempSync(join(tmpdir(), 'clinigate-scale-'));

  constructor(private readonly databaseUrl: string) {}

  async start(name: string, role: 'api' | 'worker'): Promise<Member> {
    const port = await freePort();
    const env = testEnv({
      DATABASE_URL: this.databaseUrl,
      ROLE: role,
      PORT: String(port),
      DATA_DIR: this.dataDir,
      WEBHOOK_RETRY_SCHEDULE: '1,1,2,2,5',
      WEBHOOK_ALLOW_PRIVATE: 'true',
      LOG_LEVEL: 'warn',
    });
    const proc = spawnProcess('node', ['--import', 'tsx', 'src/main.ts'], cleanEnv(env as Record<string, string>));
    const member: Member = { name, role, proc, url: role === 'api' ? `http://127.0.0.1:${port}` : undefined };
    this.members.push(member);
    const died = proc.exited.then((code) => {
      throw new Error(`${name} exited with ${code} during start-up:\n${proc.output().slice(-3000)}`);
    });
    const ready =
      role === 'api'
        ? waitForHttp(`${member.url}/api/v1/health`, 90_000)
        : waitFor(() => proc.output().includes('Clinigate (development)'), 90_000, `${name} start-up banner`);
    await Promise.race([ready, died]);
    died.catch(() => {});
    return member;
  }

  /** SIGKILL: no shutdown, no release of its jobs (a crashed machine). */
  kill(member: Member): Promise<number | null> {
    signalGroup(member.proc.child, 'SIGKILL');
    return member.proc.exited;
  }

  /** The tail of every member's output (for a failure message). */
  outputs(): string {
    return this.members.map((m) => `--- ${m.name} ---\n${m.proc.output().slice(-2000)}`).join('\n');
  }

  stop(): void {
    for (const m of this.members) signalGroup(m.proc.child, 'SIGKILL');
    rmSync(this.dataDir, { recursive: true, force: true });
  }
}

export async function waitFor(check: () => boolean | Promise<boolean>, timeoutMs: number, what: string, intervalMs = 200): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, intervalMs));
  }
}
