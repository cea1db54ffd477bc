import { SignJWT } from 'jose';
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
  const jwt = new SignJWT({ group_id: groupId }).setProtectedHeader({ alg: 'HS256' }).setSubject(userId).setIssuedAt().setExpirationTime(ttl);
  if (claims.issuer) jwt.setIssuer(claims.issuer);
  if (claims.audience) jwt.setAudience(claims.audience);
  return jwt.sign(new TextEncoder().encode(secret));
}

/** What a developer needs at start: generated secrets, a ready-to-use token and a curl example. */
export async function devBanner(config: Config, generated: string[]): Promise<string> {
  const base = `http://localhost:${config.PORT}`;
  const lines = ['', 'Clinigate (development)', `  API:        ${base}`];
  if (generated.length) {
    lines.push(`  Generated and kept in ${config.DATA_DIR}/secrets.json: ${generated.join(', ')}`);
    lines.push(`  X-Api-Key (voice platform: calls, centers):  ${config.VOICE_API_KEYS[0]}`);
    const [operator] = namedKeys(config.OPERATOR_API_KEYS);
    if (operator) lines.push(`  X-Api-Key (operator "${operator.name}": every key route, the console at ${base}/console):  ${operator.key}`);
  }
  if (config.jwtMode === 'hs256' && config.JWT_SECRET) {
    const token = await mintDevToken(config.JWT_SECRET, 'dev-user', 'dev-group', '12h', { issuer: config.JWT_ISSUER, audience: config.JWT_AUDIENCE });
    lines.push(`  Bearer token (user dev-user, group dev-group, 12 h):`, `    ${token}`);
    lines.push(
      '  Try:',
      `    curl -s -X POST ${base}/v1/transcriptions/create -H "Authorization: Bearer ${token}" \\`,
      `      -H "x-doctor: dr-demo" -H "Content-Type: application/json" \\`,
      `      -d '{"duration_seconds": 60, "original_transcript": "[doctor] how are you feeling today?"}'`,
    );
  }
  lines.push('');
  return lines.join('\n');
}
