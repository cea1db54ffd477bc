import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Config } from './config.js';

interface StoredSecrets {
  JWT_SECRET: string;
  VOICE_API_KEYS: string[];
  EHR_WEBHOOK_SECRET: string[];
  VOICE_WEBHOOK_SECRET: string[];
  /** Added later: files written before them lack them (filled in and saved on the next start). */
  VOICE_PROVIDER_SECRET?: string;
  OPERATOR_API_KEYS?: string[];
  SECRETS_ENCRYPTION_KEY?: string;
}

function generate(): StoredSecrets {
  return {
    JWT_SECRET: randomBytes(32).toString('base64url'),
    VOICE_API_KEYS: [`cg_${randomBytes(24).toString('base64url')}`],
    EHR_WEBHOOK_SECRET: [randomBytes(32).toString('hex')],
    VOICE_WEBHOOK_SECRET: [randomBytes(32).toString('hex')],
    VOICE_PROVIDER_SECRET: `whsec_${randomBytes(32).toString('base64')}`,
    OPERATOR_API_KEYS: [`operator:op_${randomBytes(24).toString('base64url')}`],
    SECRETS_ENCRYPTION_KEY: randomBytes(32).toString('base64'),
  };
}

/** What the development secrets file gave the config. */
export interface DevSecrets {
  config: Config;
  /** Names taken from DATA_DIR/secrets.json (not set in the environment). */
  generated: string[];
  /** Of those, the ones generated on this start (a new file, or names added to an older one). */
  created: string[];
}

/**
 * In development, secrets that are not set are generated once and kept in DATA_DIR/secrets.json
 * (mode 0600, also tightened on a file found looser), so restarts keep the same keys. Returns the
 * config with them filled in and the names of the filled ones. Production never reaches this
 * (parseConfig refuses first).
 */
export function fillDevSecrets(config: Config): DevSecrets {
  const file = join(config.DATA_DIR, 'secrets.json');
  let stored: StoredSecrets;
  let createdNow: string[];
  if (existsSync(file)) {
    // A copy or an editor may have left it readable by others: the keys in it open every group's PHI.
    if ((statSync(file).mode & 0o077) !== 0) chmodSync(file, 0o600);
    stored = JSON.parse(readFileSync(file, 'utf8')) as StoredSecrets;
    const fresh = generate();
    const missing = (['VOICE_PROVIDER_SECRET', 'OPERATOR_API_KEYS', 'SECRETS_ENCRYPTION_KEY'] as const).filter((name) => !stored[name]);
    for (const name of missing) Object.assign(stored, { [name]: fresh[name] });
    if (missing.length > 0) writeFileSync(file, JSON.stringify(stored, null, 2), { mode: 0o600 });
    createdNow = missing;
  } else {
    stored = generate();
    mkdirSync(config.DATA_DIR, { recursive: true });
    writeFileSync(file, JSON.stringify(stored, null, 2), { mode: 0o600 });
    createdNow = Object.keys(stored);
  }
  const generated: string[] = [];
  const next = { ...config };
  if (config.jwtMode === 'hs256' && !config.JWT_SECRET) {
    next.JWT_SECRET = stored.JWT_SECRET;
    generated.push('JWT_SECRET');
  }
  for (const name of ['VOICE_API_KEYS', 'OPERATOR_API_KEYS', 'EHR_WEBHOOK_SECRET', 'VOICE_WEBHOOK_SECRET'] as const) {
    if (config[name].length === 0) {
      next[name] = stored[name]!;
      generated.push(name);
    }
  }
  for (const name of ['VOICE_PROVIDER_SECRET', 'SECRETS_ENCRYPTION_KEY'] as const) {
    if (!config[name]) {
      next[name] = stored[name];
      generated.push(name);
    }
  }
  return { config: next, generated, created: generated.filter((name) => createdNow.includes(name)) };
}
