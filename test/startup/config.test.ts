import { describe, expect, it } from 'vitest';
import { ConfigError, parseConfig } from '../../src/config.js';

const secrets = {
  JWT_SECRET: 's',
  VOICE_API_KEYS: 'k1,k2',
  EHR_WEBHOOK_SECRET: 'e',
  VOICE_WEBHOOK_SECRET: 'v',
};

describe('configuration', () => {
  it('accepts every variable of DESIGN.md', () => {
    const config = parseConfig({
      PORT: '8080',
      DATABASE_URL: 'postgres://postgres@127.0.0.1:5432/x',
      ROLE: 'worker',
      ...secrets,
      JWT_ISSUER: 'iss',
      JWT_AUDIENCE: 'aud',
      VOICE_PROVIDER_URL: 'http://127.0.0.1:9/calls',
      ENGINE: 'openai',
      OPENAI_BASE_URL: 'http://127.0.0.1:9/v1',
      OPENAI_API_KEY: 'sk',
      OPENAI_MODEL: 'm',
      ENGINE_FALLBACK: 'local',
      ICD10CM_FILE: '/tmp/codes.txt',
      CODIFY_RATE_LIMIT: '5',
      WEBHOOK_RETRY_SCHEDULE: '1,2,3',
      WEBHOOK_ALLOW_PRIVATE: 'true',
      LOG_LEVEL: 'debug',
    });
    expect(config).toMatchObject({
      PORT: 8080,
      ROLE: 'worker',
      VOICE_API_KEYS: ['k1', 'k2'],
      CODIFY_RATE_LIMIT: 5,
      WEBHOOK_RETRY_SCHEDULE: [1, 2, 3],
      WEBHOOK_ALLOW_PRIVATE: true,
      ENGINE_FALLBACK: 'local',
      jwtMode: 'hs256',
    });
  });

  it('has laptop defaults', () => {
    const config = parseConfig({});
    expect(config).toMatchObject({ PORT: 3000, ROLE: 'all', ENGINE: 'local', CODIFY_RATE_LIMIT: 60, WEBHOOK_ALLOW_PRIVATE: false });
    expect(config.WEBHOOK_RETRY_SCHEDULE).toEqual([5, 300, 1800, 7200, 18000, 36000, 36000]);
  });

  it.each([
    [{ PORT: 'abc' }, 'PORT'],
    [{ ROLE: 'boss' }, 'ROLE'],
    [{ ENGINE: 'magic' }, 'ENGINE'],
    [{ CODIFY_RATE_LIMIT: '0' }, 'CODIFY_RATE_LIMIT'],
    [{ WEBHOOK_RETRY_SCHEDULE: '5,soon' }, 'WEBHOOK_RETRY_SCHEDULE'],
    [{ JWT_JWKS_URL: 'not a url' }, 'JWT_JWKS_URL'],
    [{ LOG_LEVEL: 'loud' }, 'LOG_LEVEL'],
  ])('refuses a wrong value naming the variable: %j', (env, name) => {
    expect(() => parseConfig(env)).toThrow(ConfigError);
    expect(() => parseConfig(env)).toThrow(name);
  });

  it('refuses production without DATABASE_URL or a secret, naming it', () => {
    expect(() => parseConfig({ NODE_ENV: 'production', ...secrets })).toThrow(/DATABASE_URL/);
    const base = { NODE_ENV: 'production', DATABASE_URL: 'postgres://x/y', ...secrets };
    for (const name of Object.keys(secrets)) {
      expect(() => parseConfig({ ...base, [name]: '' })).toThrow(new RegExp(name));
    }
    expect(parseConfig(base).NODE_ENV).toBe('production');
  });

  it('needs no JWT_SECRET in production when a public key verifies tokens', () => {
    const config = parseConfig({ NODE_ENV: 'production', DATABASE_URL: 'postgres://x/y', ...secrets, JWT_SECRET: '', JWT_JWKS_URL: 'https://idp/jwks' });
    expect(config.jwtMode).toBe('jwks');
  });
});
