import { chmodSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { parseConfig } from '../../src/config.js';
import { devBanner } from '../../src/dev-banner.js';
import { fillDevSecrets } from '../../src/dev-secrets.js';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function devConfig(env: Record<string, string> = {}) {
  const dataDir = mkdtempSync(join(tmpdir(), 'clinigate-banner-'));
  dirs.push(dataDir);
  return parseConfig({ NODE_ENV: 'development', PORT: '3123', DATA_DIR: dataDir, ...env });
}

describe('the development banner', () => {
  it('says where to go next: docs, the console with the operator key to sign in with, metrics', async () => {
    const secrets = fillDevSecrets(devConfig());
    const banner = await devBanner(secrets.config, secrets);
    const operatorKey = secrets.config.OPERATOR_API_KEYS[0]!.split(':')[1];
    expect(banner).toContain('  Docs:       http://localhost:3123/docs');
    expect(banner).toContain('  Console:    http://localhost:3123/console  (sign in with the operator key below)');
    expect(banner).toContain('  Metrics:    http://localhost:3123/metrics');
    expect(banner).toContain(`  Operator key (X-Api-Key, name operator): ${operatorKey}`);
    expect(banner).toMatch(/Bearer token \(user dev-user, group dev-group, 12 h\)/);
    expect(banner).toMatch(/curl -s -X POST http:\/\/localhost:3123\/v1\/transcriptions\/create/);
  });

  it('says "generated" only on the start that generated the secrets, "loaded" on the next ones', async () => {
    const config = devConfig();
    const file = join(config.DATA_DIR, 'secrets.json');
    const first = fillDevSecrets(config);
    expect(await devBanner(first.config, first)).toContain(`Generated and kept in ${file}: JWT_SECRET, VOICE_API_KEYS, OPERATOR_API_KEYS`);

    const again = fillDevSecrets(config);
    expect(again.created).toEqual([]);
    const banner = await devBanner(again.config, again);
    expect(banner).not.toMatch(/Generated/);
    expect(banner).toContain(`Loaded from ${file}: JWT_SECRET, VOICE_API_KEYS, OPERATOR_API_KEYS`);
  });

  it('names nothing as generated that the environment set', async () => {
    const secrets = fillDevSecrets(devConfig({ JWT_SECRET: 'a-secret-of-the-environment-long-enough', OPERATOR_API_KEYS: 'ops:mine' }));
    const banner = await devBanner(secrets.config, secrets);
    expect(banner).not.toMatch(/Generated[^\n]*(JWT_SECRET|OPERATOR_API_KEYS)/);
    expect(banner).toContain('Operator key (X-Api-Key, name ops): mine');
  });

  it("shows how to read the notes of an EHR event's group: a token for that group", async () => {
    const secrets = fillDevSecrets(devConfig());
    const banner = await devBanner(secrets.config, secrets);
    expect(banner).toContain("Notes made from EHR webhooks belong to the event's data.group_id");
    expect(banner).toContain('npx clinigate token --user dev-user --group <group_id>');
  });
});

describe('the development secrets file', () => {
  it('is written 0600, and a copy found readable by others is tightened to 0600 at start', () => {
    const config = devConfig();
    const file = join(config.DATA_DIR, 'secrets.json');
    fillDevSecrets(config);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    chmodSync(file, 0o644);
    fillDevSecrets(config);
    expect(statSync(file).mode & 0o777).toBe(0o600);
  });
});
