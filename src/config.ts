import { createHash } from 'node:crypto';
import { isNetwork } from './lib/network.js';
import { z } from 'zod';

/**
 * The one reader of process.env. Parsed once at start-up; a wrong value stops start-up naming
 * the variable. Secrets that are unset in development are filled in by `dev-secrets.ts`.
 */
const bool = z
  .enum(['true', 'false', '1', '0', ''])
  .optional()
  .transform((v) => v === 'true' || v === '1');

const list = z
  .string()
  .optional()
  .transform((v) =>
    (v ?? '')
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean),
  );

const optionalString = z
  .string()
  .optional()
  .transform((v) => (v && v.trim() ? v.trim() : undefined));

const optionalUrl = z
  .string()
  .optional()
  .transform((v) => (v && v.trim() ? v.trim() : undefined))
  .pipe(z.url().optional());

const port = (fallback: number) => z.coerce.number().int().min(0).max(65535).default(fallback);

const envSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  PORT: port(3000),
  DATABASE_URL: optionalString,
  DATA_DIR: z.string().default('.data'),
  // Unset: chosen free at first start and remembered in DATA_DIR (src/db/embedded-port.ts).
  EMBEDDED_PG_PORT: z.preprocess((v) => (v === '' ? undefined : v), z.coerce.number().int().min(1).max(65535).optional()),
  ROLE: z.enum(['api', 'worker', 'all']).default('all'),
  JWT_SECRET: optionalString,
  JWT_JWKS_URL: optionalUrl,
  JWT_PUBLIC_KEY: optionalString,
  JWT_ISSUER: optionalString,
  JWT_AUDIENCE: optionalString,
  VOICE_API_KEYS: list,
  // `name:key` or a bare key, comma-separated; parsed into {name, key} by operatorKeys() below.
  OPERATOR_API_KEYS: list,
  JWT_MAX_AGE_SECONDS: z.coerce.number().int().min(1).default(86_400),
  RETENTION_DAYS: z.coerce.number().int().min(1).default(30),
  // Seals stored credentials (webhook endpoint secrets, integration secrets, FHIR private keys) at
  // rest: 32 bytes, base64 or hex. Development generates it; production refuses to start without it.
  SECRETS_ENCRYPTION_KEY: optionalString,
  // Keys of a rotation under way: they open values sealed under them (which start-up and
  // `clinigate secrets rotate-key` re-seal under SECRETS_ENCRYPTION_KEY); they seal nothing.
  SECRETS_ENCRYPTION_PREVIOUS_KEYS: list,
  // Empty (as docker-compose passes an unset variable) is off, not port 0.
  HL7_MLLP_PORT: z.preprocess((v) => (v === '' ? undefined : v), z.coerce.number().int().min(0).max(65535).optional()),
  HL7_MLLP_HOST: z.string().default('127.0.0.1'),
  // MLLP over TLS (DESIGN 2026-11-26): the port, and PEM files of the server's certificate and key and
  // of the CAs client certificates must chain to (optional: senders may pin theirs by fingerprint).
  HL7_MLLPS_PORT: z.preprocess((v) => (v === '' ? undefined : v), z.coerce.number().int().min(0).max(65535).optional()),
  HL7_TLS_CERT: optionalString,
  HL7_TLS_KEY: optionalString,
  HL7_TLS_CA: optionalString,
  HL7_MAX_FRAME_BYTES: z.coerce
    .number()
    .int()
    .min(1024)
    .default(1024 * 1024),
  EHR_WEBHOOK_SECRET: list,
  VOICE_WEBHOOK_SECRET: list,
  VOICE_PROVIDER_URL: optionalUrl,
  // Signs calls handed to the provider (both signatures, as outbound webhooks): `whsec_` + base64.
  VOICE_PROVIDER_SECRET: optionalString.refine(
    (v) => v === undefined || /^whsec_[A-Za-z0-9+/]+={0,2}$/.test(v),
    'must be whsec_ followed by base64',
  ),
  ENGINE: z.enum(['local', 'openai']).default('local'),
  OPENAI_BASE_URL: optionalUrl,
  OPENAI_API_KEY: optionalString,
  OPENAI_MODEL: optionalString,
  OPENAI_MODEL_FAST: optionalString,
  OPENAI_MODEL_BALANCED: optionalString,
  OPENAI_MODEL_HIGH_QUALITY: optionalString,
  OPENAI_TIMEOUT_MS: z.coerce.number().int().min(1).default(60_000),
  OPENAI_MAX_RETRIES: z.coerce.number().int().min(0).max(10).default(2),
  ENGINE_FALLBACK: z
    .enum(['local', ''])
    .optional()
    .transform((v) => (v ? v : undefined)),
  ICD10CM_FILE: optionalString,
  CODIFY_RATE_LIMIT: z.coerce.number().int().min(1).default(60),
  // Run creations per 60 s per group and user (DESIGN "Fair share between groups").
  RUN_RATE_LIMIT: z.coerce.number().int().min(1).default(120),
  // Engine calls that may wait per group; past it codify answers 503 (runs wait as jobs).
  ENGINE_QUEUE_PER_GROUP: z.coerce.number().int().min(1).default(50),
  // Local engine threads per process; unset: one per core beyond the first, at most 2.
  ENGINE_THREADS: z.coerce.number().int().min(1).max(16).optional(),
  CODIFY_TIMEOUT_MS: z.coerce.number().int().min(1).default(600_000),
  WEBHOOK_RETRY_SCHEDULE: z
    .string()
    .default('5,300,1800,7200,18000,36000,36000')
    .transform((v) => v.split(',').map((s) => Number(s.trim())))
    .refine((a) => a.every((n) => Number.isFinite(n) && n >= 0), 'must be comma-separated seconds'),
  WEBHOOK_ALLOW_PRIVATE: bool,
  // Private ranges outbound endpoints may reach, the only ones `http://` and `mllp://` may go to
  // (DESIGN 2026-11-26): a hospital network or VPN, e.g. `10.20.0.0/16,192.168.5.7`.
  OUTBOUND_ALLOW_CIDRS: list.refine((a) => a.every(isNetwork), 'must be comma-separated IP addresses or CIDRs'),
  // DESIGN "Fair share between groups" and "Delivery operations" (2026-11-26).
  WEBHOOK_ENDPOINT_CONCURRENCY: z.coerce.number().int().min(1).max(100).default(4),
  WEBHOOK_ENDPOINTS_PER_GROUP: z.coerce.number().int().min(1).default(25),
  WEBHOOK_FAILING_AFTER: z.coerce.number().int().min(1).default(5),
  CALL_TIMEOUT_MINUTES: z.coerce.number().positive().default(30),
  LOG_LEVEL: z.enum(['error', 'warn', 'info', 'http', 'verbose', 'debug', 'silly']).default('info'),
});

export type Env = z.infer<typeof envSchema>;

export interface Config extends Env {
  /** JWT verification mode derived from the variables above. */
  jwtMode: 'hs256' | 'jwks' | 'public-key';
}

export class ConfigError extends Error {}

/** Secrets a production deployment must set; development generates them (dev-secrets.ts). */
export const SECRET_VARIABLES = [
  'JWT_SECRET',
  'VOICE_API_KEYS',
  'OPERATOR_API_KEYS',
  'EHR_WEBHOOK_SECRET',
  'VOICE_WEBHOOK_SECRET',
] as const;

export interface NamedKey {
  /** The key's name (`name:key`), else its fingerprint: the first 8 hex digits of its SHA-256. */
  name: string;
  key: string;
}

/** OPERATOR_API_KEYS entries as {name, key}; a bare key is named by its fingerprint. */
export function namedKeys(entries: string[]): NamedKey[] {
  return entries.map((entry) => {
    const colon = entry.indexOf(':');
    if (colon > 0 && colon < entry.length - 1) return { name: entry.slice(0, colon), key: entry.slice(colon + 1) };
    return { name: keyFingerprint(entry), key: entry };
  });
}

export function keyFingerprint(key: string): string {
  return createHash('sha256').update(key).digest('hex').slice(0, 8);
}

export function parseConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new ConfigError(`Invalid configuration: ${issue.path.join('.')} ${issue.message}`);
  }
  const cfg = parsed.data;
  const jwtMode = cfg.JWT_JWKS_URL ? 'jwks' : cfg.JWT_PUBLIC_KEY ? 'public-key' : 'hs256';
  if (cfg.NODE_ENV === 'production') {
    if (!cfg.DATABASE_URL) throw new ConfigError('Invalid configuration: DATABASE_URL is required in production');
    for (const name of SECRET_VARIABLES) {
      if (name === 'JWT_SECRET' && jwtMode !== 'hs256') continue;
      const value = cfg[name];
      if (!value || (Array.isArray(value) && value.length === 0)) {
        throw new ConfigError(`Invalid configuration: ${name} is required in production`);
      }
    }
  }
  if (cfg.NODE_ENV === 'production') checkProductionSecrets(cfg, jwtMode);
  if (cfg.SECRETS_ENCRYPTION_KEY && decodeKey(cfg.SECRETS_ENCRYPTION_KEY) === undefined) {
    throw new ConfigError('Invalid configuration: SECRETS_ENCRYPTION_KEY must be 32 bytes, as 64 hex digits or base64');
  }
  if (cfg.SECRETS_ENCRYPTION_PREVIOUS_KEYS.some((k) => decodeKey(k) === undefined)) {
    throw new ConfigError('Invalid configuration: SECRETS_ENCRYPTION_PREVIOUS_KEYS must be 32-byte keys, as 64 hex digits or base64');
  }
  if (cfg.NODE_ENV === 'production' && cfg.VOICE_PROVIDER_URL && !cfg.VOICE_PROVIDER_SECRET) {
    throw new ConfigError('Invalid configuration: VOICE_PROVIDER_SECRET is required in production when VOICE_PROVIDER_URL is set');
  }
  if (cfg.HL7_MLLPS_PORT !== undefined && (!cfg.HL7_TLS_CERT || !cfg.HL7_TLS_KEY)) {
    throw new ConfigError('Invalid configuration: HL7_MLLPS_PORT needs HL7_TLS_CERT and HL7_TLS_KEY (PEM files)');
  }
  if (cfg.ENGINE === 'openai' && !cfg.OPENAI_BASE_URL) {
    throw new ConfigError('Invalid configuration: OPENAI_BASE_URL is required when ENGINE=openai');
  }
  if (cfg.ENGINE === 'openai' && !cfg.OPENAI_MODEL) {
    throw new ConfigError('Invalid configuration: OPENAI_MODEL is required when ENGINE=openai');
  }
  return { ...cfg, jwtMode };
}

/** Shortest key or HMAC secret production accepts, in bytes (DESIGN "Fair share between groups"). */
export const MIN_SECRET_BYTES = 32;

/**
 * Production needs the sealing key, and every key and HMAC secret at least 32 bytes: a short one
 * is named (an operator key by its name or fingerprint, never its value).
 */
function checkProductionSecrets(cfg: Env, jwtMode: Config['jwtMode']): void {
  if (!cfg.SECRETS_ENCRYPTION_KEY) {
    throw new ConfigError('Invalid configuration: SECRETS_ENCRYPTION_KEY is required in production (32 bytes, as 64 hex digits or base64)');
  }
  const short = (value: string) => Buffer.byteLength(value, 'utf8') < MIN_SECRET_BYTES;
  const refuse = (what: string) => {
    throw new ConfigError(`Invalid configuration: ${what} must be at least ${MIN_SECRET_BYTES} bytes in production`);
  };
  if (jwtMode === 'hs256' && short(cfg.JWT_SECRET ?? '')) refuse('JWT_SECRET');
  for (const { name, key } of namedKeys(cfg.OPERATOR_API_KEYS)) if (short(key)) refuse(`OPERATOR_API_KEYS (the key ${name})`);
  for (const key of cfg.VOICE_API_KEYS) if (short(key)) refuse(`VOICE_API_KEYS (the key ${keyFingerprint(key)})`);
  for (const name of ['EHR_WEBHOOK_SECRET', 'VOICE_WEBHOOK_SECRET'] as const) {
    if (cfg[name].some(short)) refuse(`every ${name}`);
  }
  // Standard Webhooks signs with the decoded part after whsec_: that is the key to measure.
  const provider = cfg.VOICE_PROVIDER_SECRET;
  if (provider && Buffer.from(provider.slice('whsec_'.length), 'base64').length < MIN_SECRET_BYTES) {
    refuse('VOICE_PROVIDER_SECRET (the base64 part, decoded)');
  }
}

/** The sealing keys of lib/secret-box.ts: the current one and those of a rotation under way. */
export function encryptionKeys(cfg: Pick<Env, 'SECRETS_ENCRYPTION_KEY' | 'SECRETS_ENCRYPTION_PREVIOUS_KEYS'>): {
  current?: Buffer;
  previous: Buffer[];
} {
  return {
    current: cfg.SECRETS_ENCRYPTION_KEY ? decodeKey(cfg.SECRETS_ENCRYPTION_KEY) : undefined,
    previous: cfg.SECRETS_ENCRYPTION_PREVIOUS_KEYS.map((k) => decodeKey(k)).filter((k): k is Buffer => k !== undefined),
  };
}

/** A 32-byte key written as 64 hex digits or base64; undefined when it is neither. */
export function decodeKey(value: string): Buffer | undefined {
  const bytes = /^[0-9a-fA-F]{64}$/.test(value) ? Buffer.from(value, 'hex') : Buffer.from(value, 'base64');
  return bytes.length === 32 ? bytes : undefined;
}
