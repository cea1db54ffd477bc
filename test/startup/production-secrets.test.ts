import { randomBytes } from 'node:crypto';
import { inject } from 'vitest';
import { describe, expect, it } from 'vitest';
import { cleanEnv, spawnProcess } from '../helpers/process.js';

/** Every secret production needs, each long enough; a test changes one. */
const productionEnv = () => ({
  NODE_ENV: 'production',
  DATABASE_URL: inject('databaseUrl'),
  PORT: '0',
  JWT_SECRET: randomBytes(32).toString('base64'),
  VOICE_API_KEYS: randomBytes(32).toString('base64url'),
  OPERATOR_API_KEYS: `ops:${randomBytes(32).toString('base64url')}`,
  EHR_WEBHOOK_SECRET: randomBytes(32).toString('hex'),
  VOICE_WEBHOOK_SECRET: randomBytes(32).toString('hex'),
  SECRETS_ENCRYPTION_KEY: randomBytes(32).toString('base64'),
});

/** `npm start`'s entry through tsx: resolves with the exit code and output once it ends. */
async function start(env: Record<string, string>) {
  const proc = spawnProcess('node', ['--import', 'tsx', 'src/main.ts'], cleanEnv(env));
  const code = await proc.exited;
  return { code, output: proc.output() };
}

describe('production start-up refuses weak or missing secrets', () => {
  it('without SECRETS_ENCRYPTION_KEY: exit 1, naming it', async () => {
    const { SECRETS_ENCRYPTION_KEY: _unset, ...env } = productionEnv();
    const { code, output } = await start(env);
    expect(code).toBe(1);
    expect(output).toMatch(/Invalid configuration: SECRETS_ENCRYPTION_KEY is required in production/);
  });

  it('with an operator key or an HMAC secret under 32 bytes: exit 1, naming the variable, never the value', async () => {
    const short = 'short-operator-key-31-bytes-long';
    expect(Buffer.byteLength(short.slice(1))).toBe(31);
    const op = await start({ ...productionEnv(), OPERATOR_API_KEYS: `night:${short.slice(1)}` });
    expect(op.code).toBe(1);
    expect(op.output).toMatch(/OPERATOR_API_KEYS \(the key night\) must be at least 32 bytes/);
    expect(op.output).not.toContain(short.slice(1));
    const hmac = await start({ ...productionEnv(), EHR_WEBHOOK_SECRET: 'x' });
    expect(hmac.code).toBe(1);
    expect(hmac.output).toMatch(/EHR_WEBHOOK_SECRET must be at least 32 bytes/);
  });
});
