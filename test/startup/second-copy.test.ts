import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../../src/lib/free-port.js';
import { signalGroup, type Spawned } from '../helpers/process.js';
import { createTranscription, devHeaders, servicePid, spawnService, transcriptionStatus, troubleIn, waitHealthy } from './service.js';

/**
 * A second copy started beside a running one exits by itself, non-zero, with one line naming why,
 * after stopping whatever it had started; the first copy keeps serving, its data untouched.
 */
describe('a second copy of the service', () => {
  let dataDir: string;
  let port: number;
  let pgPort: number;
  let first: Spawned;
  let headers: Record<string, string>;
  let written: string;

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'clinigate-first-'));
    port = await freePort();
    pgPort = await freePort();
    first = spawnService({ port, pgPort, dataDir, via: 'tsx' });
    await waitHealthy(first, port);
    headers = await devHeaders(dataDir);
    written = await createTranscription(port, headers, 'first copy');
  }, 120_000);

  afterAll(async () => {
    // Run through tsx, the service is the spawned process itself.
    first.child.kill('SIGTERM');
    await Promise.race([first.exited, new Promise((r) => setTimeout(r, 30_000))]);
    signalGroup(first.child, 'SIGKILL');
    rmSync(dataDir, { recursive: true, force: true });
  }, 60_000);

  async function firstStillServes() {
    expect(await transcriptionStatus(port, headers, written)).toBe(200);
    expect(first.child.exitCode).toBe(null);
  }

  /** The lines the second copy wrote outside the JSON log. */
  const plainLines = (proc: Spawned) =>
    proc
      .output()
      .split('\n')
      .filter((l) => l.trim() && !l.startsWith('{'));

  it('same port and same data folder: "data folder in use by pid N", exit 1, nothing started', async () => {
    const second = spawnService({ port, pgPort, dataDir, via: 'tsx' });
    try {
      expect(await second.exited).toBe(1);
      const firstPid = await servicePid(first);
      expect(plainLines(second)).toEqual([
        `Start-up failed: data folder ${dataDir} is in use by pid ${firstPid} (another Clinigate): stop it, or give this one its own DATA_DIR`,
      ]);
      expect(second.output()).not.toMatch(/listening|Bearer token|embedded PostgreSQL started/);
      expect(troubleIn(second.output())).toEqual([]);
      await firstStillServes();
    } finally {
      signalGroup(second.child, 'SIGKILL');
    }
  }, 60_000);

  it('its own data folder and database port but the same HTTP port: "port in use", exit 1, after stopping what it started', async () => {
    const ownDir = mkdtempSync(join(tmpdir(), 'clinigate-second-'));
    const second = spawnService({ port, pgPort: await freePort(), dataDir: ownDir, via: 'tsx' });
    try {
      expect(await second.exited).toBe(1);
      expect(plainLines(second)).toEqual([
        `Start-up failed: port ${port} is in use by another process: stop it, or set PORT to a free port`,
      ]);
      const out = second.output();
      // It got as far as its own database, never claimed to listen, printed no banner or token.
      expect(out).toMatch(/"message":"embedded PostgreSQL started"/);
      expect(out).not.toMatch(/"message":"listening"|Clinigate \(development\)|Bearer token/);
      expect(troubleIn(out)).toEqual([]);
      // Its embedded PostgreSQL was stopped and its data folder lock released.
      expect(existsSync(join(ownDir, 'pg', 'PG_VERSION'))).toBe(true);
      expect(existsSync(join(ownDir, 'pg', 'postmaster.pid'))).toBe(false);
      expect(existsSync(join(ownDir, 'clinigate.pid'))).toBe(false);
      await firstStillServes();
    } finally {
      signalGroup(second.child, 'SIGKILL');
      rmSync(ownDir, { recursive: true, force: true });
    }
  }, 90_000);

  it('its own data folder but EMBEDDED_PG_PORT set to the first copy\'s database port: "port in use", exit 1, no cluster made', async () => {
    const ownDir = mkdtempSync(join(tmpdir(), 'clinigate-second-'));
    const second = spawnService({ port: await freePort(), pgPort, dataDir: ownDir, via: 'tsx' });
    try {
      expect(await second.exited).toBe(1);
      expect(plainLines(second)).toEqual([
        `Start-up failed: embedded PostgreSQL port ${pgPort} (EMBEDDED_PG_PORT) is in use by another process: stop it, or unset EMBEDDED_PG_PORT to let a free port be chosen`,
      ]);
      expect(existsSync(join(ownDir, 'clinigate.pid'))).toBe(false);
      // The port is settled before initdb: a start that cannot run makes no cluster.
      expect(existsSync(join(ownDir, 'pg', 'PG_VERSION'))).toBe(false);
      await firstStillServes();
    } finally {
      signalGroup(second.child, 'SIGKILL');
      rmSync(ownDir, { recursive: true, force: true });
    }
  }, 60_000);

  it('`clinigate serve` on the same data folder says the same, in one line', async () => {
    const { runCli } = await import('../cli/cli-helpers.js');
    const res = await runCli(['serve'], {
      PORT: String(await freePort()),
      EMBEDDED_PG_PORT: String(pgPort),
      DATA_DIR: dataDir,
      NODE_ENV: 'development',
      LOG_LEVEL: 'info',
    });
    expect(res.code).toBe(1);
    expect(res.stderr.trim().split('\n')).toEqual([
      expect.stringMatching(new RegExp(`^Start-up failed: data folder ${dataDir} is in use by pid \\d+`)),
    ]);
    await firstStillServes();
  }, 60_000);
});
