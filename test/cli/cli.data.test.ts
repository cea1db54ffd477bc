import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runCli } from './cli-helpers.js';

/** A DATA_DIR as the service leaves it (a stand-in cluster folder: the command only lists and deletes files). */
function dataDirWithData(): string {
  const dataDir = join(mkdtempSync(join(tmpdir(), 'clinigate-cli-data-')), '.data');
  mkdirSync(join(dataDir, 'pg', 'base'), { recursive: true });
  writeFileSync(join(dataDir, 'pg', 'PG_VERSION'), '18\n');
  writeFileSync(join(dataDir, 'pg', 'base', 'table'), Buffer.alloc(4096));
  writeFileSync(join(dataDir, 'secrets.json'), '{}');
  writeFileSync(join(dataDir, 'embedded-pg.json'), '{"port":54400}\n');
  return dataDir;
}

const made: string[] = [];
afterEach(() => {
  for (const dir of made.splice(0)) rmSync(join(dir, '..'), { recursive: true, force: true });
});

describe('clinigate data list|purge', () => {
  it('list names DATA_DIR, each entry with its size and what it is, and the port', async () => {
    const dataDir = dataDirWithData();
    made.push(dataDir);
    const res = await runCli(['data', 'list'], { DATA_DIR: dataDir });
    expect(res.code).toBe(0);
    expect(res.stdout).toContain(`${dataDir}  (not running, embedded PostgreSQL port 54400)`);
    expect(res.stdout).toMatch(new RegExp(`${join(dataDir, 'pg')}  4\\.\\d KB  embedded PostgreSQL cluster: patient data`));
    expect(res.stdout).toContain(`${join(dataDir, 'secrets.json')}  2 B  generated development secrets`);
  });

  it('purge without a terminal and without --yes refuses (exit 2) and deletes nothing', async () => {
    const dataDir = dataDirWithData();
    made.push(dataDir);
    const res = await runCli(['data', 'purge'], { DATA_DIR: dataDir });
    expect(res.code).toBe(2);
    expect(res.stderr.trim()).toBe('error: refusing to delete patient data without a confirmation: run it in a terminal, or pass --yes');
    expect(existsSync(join(dataDir, 'pg', 'PG_VERSION'))).toBe(true);
  });

  it('purge --yes deletes the cluster, the secrets and the port, and DATA_DIR once empty', async () => {
    const dataDir = dataDirWithData();
    made.push(dataDir);
    const res = await runCli(['data', 'purge', '--yes'], { DATA_DIR: dataDir });
    expect(res.code).toBe(0);
    expect(res.stdout).toContain(join(dataDir, 'pg'));
    expect(existsSync(dataDir)).toBe(false);
  });

  it("purge --yes keeps what is not the service's in DATA_DIR", async () => {
    const dataDir = dataDirWithData();
    made.push(dataDir);
    writeFileSync(join(dataDir, 'notes.txt'), 'mine');
    expect((await runCli(['data', 'purge', '--yes'], { DATA_DIR: dataDir })).code).toBe(0);
    expect(existsSync(join(dataDir, 'pg'))).toBe(false);
    expect(existsSync(join(dataDir, 'notes.txt'))).toBe(true);
  });

  it('purge refuses while a service holds DATA_DIR (exit 1), deleting nothing', async () => {
    const dataDir = dataDirWithData();
    made.push(dataDir);
    writeFileSync(join(dataDir, 'clinigate.pid'), `${process.pid}\n`); // this test's node process: alive
    const res = await runCli(['data', 'purge', '--yes'], { DATA_DIR: dataDir });
    expect(res.code).toBe(1);
    expect(res.stderr.trim()).toBe(`error: the service (pid ${process.pid}) is using ${dataDir}: stop it first`);
    expect(existsSync(join(dataDir, 'pg', 'PG_VERSION'))).toBe(true);
  });

  it('list of a DATA_DIR that does not exist says so', async () => {
    const dataDir = join(mkdtempSync(join(tmpdir(), 'clinigate-cli-data-')), '.data');
    made.push(dataDir);
    const res = await runCli(['data', 'list'], { DATA_DIR: dataDir });
    expect(res.code).toBe(0);
    expect(res.stdout).toContain(`${dataDir}: nothing (no data yet)`);
  });
});
