import { describe, expect, it } from 'vitest';
import { ConfigError, decodeKey, keyFingerprint, namedKeys, parseConfig } from '../../src/config.js';

const secrets = {
  JWT_SECRET: 's'.repeat(32),
  VOICE_API_KEYS: 'k1,k2',
  OPERATOR_API_KEYS: 'ops:o1,o2',
  EHR_WEBHOOK_SECRET: 'e',
  VOICE_WEBHOOK_SECRET: 'v',
};
/** The same, long enough for production (every key and HMAC secret at least 32 bytes), with the sealing key. */
const productionSecrets = {
  JWT_SECRET: 's'.repeat(32),
  VOICE_API_KEYS: `${'k'.repeat(32)},${'l'.repeat(40)}`,
  OPERATOR_API_KEYS: `ops:${'o'.repeat(32)},${'p'.repeat(32)}`,
  EHR_WEBHOOK_SECRET: 'e'.repeat(32),
  VOICE_WEBHOOK_SECRET: 'v'.repeat(32),
  SECRETS_ENCRYPTION_KEY: 'ab'.repeat(32),
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
    expect(() => parseConfig({ NODE_ENV: 'production', ...productionSecrets })).toThrow(/DATABASE_URL/);
    const base = { NODE_ENV: 'production', DATABASE_URL: 'postgres://x/y', ...productionSecrets };
    for (const name of Object.keys(productionSecrets)) {
      expect(() => parseConfig({ ...base, [name]: '' })).toThrow(new RegExp(name));
    }
    expect(parseConfig(base).NODE_ENV).toBe('production');
  });

  it('needs no JWT_SECRET in production when a public key verifies tokens', () => {
    const config = parseConfig({
      NODE_ENV: 'production',
      DATABASE_URL: 'postgres://x/y',
      ...productionSecrets,
      JWT_SECRET: '',
      JWT_JWKS_URL: 'https://idp/jwks',
    });
    expect(config.jwtMode).toBe('jwks');
  });

  it('refuses a JWT_SECRET shorter than 32 bytes in production', () => {
    const base = { NODE_ENV: 'production', DATABASE_URL: 'postgres://x/y', ...productionSecrets };
    expect(() => parseConfig({ ...base, JWT_SECRET: 'x'.repeat(31) })).toThrow(/JWT_SECRET must be at least 32 bytes/);
    expect(parseConfig({ ...base, JWT_SECRET: 'x'.repeat(32) }).JWT_SECRET).toHaveLength(32);
  });

  it('refuses in production any key or HMAC secret under 32 bytes, naming it but never showing it', () => {
    const base = { NODE_ENV: 'production', DATABASE_URL: 'postgres://x/y', ...productionSecrets };
    const short = 'x'.repeat(31);
    const cases: Array<[Record<string, string>, RegExp]> = [
      [{ OPERATOR_API_KEYS: `ops:${'o'.repeat(32)},night:${short}` }, /OPERATOR_API_KEYS \(the key night\) must be at least 32 bytes/],
      [{ VOICE_API_KEYS: `${'k'.repeat(32)},${short}` }, /VOICE_API_KEYS \(the key [0-9a-f]{8}\)/],
      [{ EHR_WEBHOOK_SECRET: `${'e'.repeat(32)},${short}` }, /EHR_WEBHOOK_SECRET must be at least 32 bytes/],
      [{ VOICE_WEBHOOK_SECRET: short }, /VOICE_WEBHOOK_SECRET must be at least 32 bytes/],
      [{ VOICE_PROVIDER_SECRET: `whsec_${Buffer.alloc(16).toString('base64')}` }, /VOICE_PROVIDER_SECRET/],
    ];
    for (const [change, message] of cases) {
      const attempt = () => parseConfig({ ...base, ...change });
      expect(attempt).toThrow(message);
      expect(attempt).not.toThrow(new RegExp(short));
    }
    expect(() => parseConfig({ ...base, VOICE_PROVIDER_SECRET: `whsec_${Buffer.alloc(32, 1).toString('base64')}` })).not.toThrow();
    // Development and tests keep their short keys.
    expect(parseConfig({ ...secrets }).EHR_WEBHOOK_SECRET).toEqual(['e']);
  });

  it('names operator keys by `name:key`, else by their fingerprint', () => {
    const config = parseConfig({ OPERATOR_API_KEYS: 'ops:secret-one, bare-key' });
    expect(namedKeys(config.OPERATOR_API_KEYS)).toEqual([
      { name: 'ops', key: 'secret-one' },
      { name: keyFingerprint('bare-key'), key: 'bare-key' },
    ]);
    expect(keyFingerprint('bare-key')).toMatch(/^[0-9a-f]{8}$/);
  });

  it('has the retention, token age and MLLP defaults of DESIGN.md', () => {
    expect(parseConfig({})).toMatchObject({ JWT_MAX_AGE_SECONDS: 86_400, RETENTION_DAYS: 30, HL7_MLLP_HOST: '127.0.0.1' });
    expect(parseConfig({}).HL7_MLLP_PORT).toBeUndefined();
    expect(parseConfig({ HL7_MLLP_PORT: '' }).HL7_MLLP_PORT).toBeUndefined();
    expect(parseConfig({ HL7_MLLP_PORT: '2575' }).HL7_MLLP_PORT).toBe(2575);
    expect(() => parseConfig({ HL7_MLLP_PORT: 'mllp' })).toThrow(/HL7_MLLP_PORT/);
  });

  it('takes a 32-byte encryption key as hex or base64 and refuses any other', () => {
    expect(decodeKey('ab'.repeat(32))).toHaveLength(32);
    expect(decodeKey(Buffer.alloc(32, 1).toString('base64'))).toHaveLength(32);
    expect(() => parseConfig({ SECRETS_ENCRYPTION_KEY: 'short' })).toThrow(/SECRETS_ENCRYPTION_KEY/);
  });
});
