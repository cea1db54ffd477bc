import { SignJWT } from 'jose';
import { join, resolve } from 'node:path';
import { describeUrl } from './db/describe-url.js';
import { namedKeys, type Config } from './config.js';

/**
 * A development bearer token for a user and group, signed with JWT_SECRET (HS256). Pass the
 * configured JWT_ISSUER / JWT_AUDIENCE when set, or the service rejects the token.
 */
export async function mintDevToken(
  secret: string,
  userId: string,
  groupId: string,
  ttl = '12h',
  claims: { issuer?: string; audience?: string } = {},
): Promise<string> {
  const jwt = new SignJWT({ group_id: groupId })
    .setProtectedHeader({ alg: 'HS256' })
    .setSubject(userId)
    .setIssuedAt()
    .setExpirationTime(ttl);
  if (claims.issuer) jwt.setIssuer(claims.issuer);
  if (claims.audience) jwt.setAudience(claims.audience);
  return jwt.sign(new TextEncoder().encode(secret));
}

/** How to run the CLI from this checkout: the built bin after `npm start` (which builds), else the sources. */
export const CLI = 'npx clinigate';

/**
 * What a developer needs at start: where to go next (API, docs, console with the key to sign in
 * with, metrics), the secrets and whether they were made just now, a ready-to-use token with a
 * curl example, and how to read notes of an EHR event's group (they are not the token's group).
 */
/** Where the patient data is: the embedded cluster in DATA_DIR, or the DATABASE_URL server. */
export function dataLine(config: Config, embedded?: { clusterDir: string; port: number }): string {
  if (embedded)
    return `  Data:       ${embedded.clusterDir}  (embedded PostgreSQL on 127.0.0.1:${embedded.port}; patient data lives only here: ${CLI} data list|purge)`;
  return `  Data:       the database at ${describeUrl(config.DATABASE_URL ?? '')} (DATABASE_URL); development secrets in ${resolve(config.DATA_DIR)}`;
}

export async function devBanner(
  config: Config,
  secrets: { generated: string[]; created: string[] },
  embedded?: { clusterDir: string; port: number },
): Promise<string> {
  const base = `http://localhost:${config.PORT}`;
  const operator = namedKeys(config.OPERATOR_API_KEYS)[0];
  const lines = [
    '',
    'Clinigate (development)',
    `  API:        ${base}`,
    `  Docs:       ${base}/docs  (OpenAPI 3.1: ${base}/openapi.json)`,
    `  Console:    ${base}/console  (sign in with the operator key below)`,
    `  Metrics:    ${base}/metrics  (Prometheus)`,
    dataLine(config, embedded),
  ];
  if (operator) lines.push(`  Operator key (X-Api-Key, name ${operator.name}): ${operator.key}`);
  if (secrets.generated.includes('VOICE_API_KEYS'))
    lines.push(`  Voice key (X-Api-Key, calls and centers only): ${config.VOICE_API_KEYS[0]}`);
  const file = join(config.DATA_DIR, 'secrets.json');
  if (secrets.created.length) lines.push(`  Generated and kept in ${file}: ${secrets.created.join(', ')}`);
  const loaded = secrets.generated.filter((name) => !secrets.created.includes(name));
  if (loaded.length) lines.push(`  Loaded from ${file}: ${loaded.join(', ')}`);
  if (config.jwtMode === 'hs256' && config.JWT_SECRET) {
    const token = await mintDevToken(config.JWT_SECRET, 'dev-user', 'dev-group', '12h', {
      issuer: config.JWT_ISSUER,
      audience: config.JWT_AUDIENCE,
    });
    lines.push(`  Bearer token (user dev-user, group dev-group, 12 h):`, `    ${token}`);
    lines.push(
      '  Try:',
      `    curl -s -X POST ${base}/v1/transcriptions/create -H "Authorization: Bearer ${token}" \\`,
      `      -H "x-doctor: dr-demo" -H "Content-Type: application/json" \\`,
      `      -d '{"duration_seconds": 60, "original_transcript": "[doctor] how are you feeling today?"}'`,
      "  Notes made from EHR webhooks belong to the event's data.group_id, not to dev-group; read them with",
      `  a token for that group: ${CLI} token --user dev-user --group <group_id>`,
    );
  }
  lines.push('');
  return lines.join('\n');
}

/** A worker process has no HTTP: its banner says only that its workers run (tests wait for it too). */
export function workerBanner(config: Config, embedded?: { clusterDir: string; port: number }): string {
  return [
    '',
    'Clinigate (development)',
    '  ROLE worker: the queue workers run; this process serves no HTTP',
    dataLine(config, embedded),
    '',
  ].join('\n');
}
