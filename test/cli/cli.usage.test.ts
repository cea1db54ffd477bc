import { describe, expect, it } from 'vitest';
import { runCli } from './cli-helpers.js';

describe('clinigate usage', { timeout: 90_000 }, () => {
  it('--help lists every command and the exit codes', async () => {
    const r = await runCli(['--help']);
    expect(r.code).toBe(0);
    for (const command of ['serve', 'migrate', 'token', 'icd10', 'webhooks', 'data'])
      expect(r.stdout).toMatch(new RegExp(`^  ${command}\\b`, 'm'));
    expect(r.stdout).toMatch(/icd10 import <file>/);
    expect(r.stdout).toMatch(/webhooks replay --dead/);
    expect(r.stdout).toMatch(/data list \| data purge \[--yes\]/);
    expect(r.stdout).toMatch(/Exit codes/);
  });

  it('each command has its own --help with its options', async () => {
    const helps = await Promise.all([
      runCli(['serve', '--help']),
      runCli(['token', '--help']),
      runCli(['icd10', 'import', '--help']),
      runCli(['webhooks', 'replay', '--help']),
      runCli(['data', 'purge', '--help']),
    ]);
    expect(helps.map((h) => h.code)).toEqual([0, 0, 0, 0, 0]);
    expect(helps[0].stdout).toMatch(/--role <role>[\s\S]*choices: "api",\s+"worker",\s+"all"/);
    expect(helps[1].stdout).toMatch(/--user <id>[\s\S]*--group <id>[\s\S]*--ttl <duration>[\s\S]*default: "12h"/);
    expect(helps[2].stdout).toMatch(/<file>[\s\S]*--categories <file>/);
    expect(helps[3].stdout).toMatch(/--dead[\s\S]*--endpoint <id>/);
    expect(helps[4].stdout).toMatch(/--yes[\s\S]*--all-earlier/);
  });

  it('an unknown command, a missing argument or option, a bad choice: one line on stderr, exit 2', async () => {
    const [unknown, noFile, noGroup, badRole, noMode] = await Promise.all([
      runCli(['frobnicate']),
      runCli(['icd10', 'import']),
      runCli(['token', '--user', 'u1']),
      runCli(['serve', '--role', 'boss']),
      runCli(['webhooks', 'replay']),
    ]);
    expect(unknown).toMatchObject({ code: 2, stdout: '' });
    expect(unknown.stderr.trim()).toBe("error: unknown command 'frobnicate'");
    expect(noFile.stderr.trim()).toBe("error: missing required argument 'file'");
    expect(noGroup.stderr.trim()).toBe("error: required option '--group <id>' not specified");
    expect(badRole.stderr.trim()).toMatch(/^error: option '--role <role>' argument 'boss' is invalid/);
    expect(noMode.stderr.trim()).toMatch(/^error: say which deliveries to replay: --dead/);
    for (const r of [unknown, noFile, noGroup, badRole, noMode]) {
      expect(r.code).toBe(2);
      expect(r.stderr.trim().split('\n')).toHaveLength(1);
    }
  });

  it('an unreachable database: one line naming host, port and database (no password), exit 1', async () => {
    const env = { DATABASE_URL: 'postgres://admin:s3cret@127.0.0.1:1/clinigate' };
    const results = await Promise.all([
      runCli(['migrate'], env),
      runCli(['webhooks', 'replay', '--dead'], env),
      runCli(['icd10', 'import', 'package.json'], env),
    ]);
    for (const r of results) {
      expect(r.code).toBe(1);
      expect(r.stderr.trim()).toMatch(/^error: cannot reach the database at 127\.0\.0\.1:1\/clinigate: connect ECONNREFUSED/);
      expect(r.stderr.trim().split('\n')).toHaveLength(1);
      expect(r.stderr).not.toMatch(/s3cret/);
    }
  });
});
