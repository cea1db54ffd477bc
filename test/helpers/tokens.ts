import { randomUUID } from 'node:crypto';
import { SignJWT, type JWTPayload } from 'jose';

export const TEST_JWT_SECRET = 'test-jwt-secret-that-is-long-enough-for-hs256';

/** A valid HS256 bearer token for the test app; overrides change or drop claims. */
export async function tokenFor(claims: JWTPayload = {}, secret = TEST_JWT_SECRET): Promise<string> {
  const payload: JWTPayload = { sub: `user-${randomUUID()}`, group_id: `group-${randomUUID()}`, ...claims };
  const jwt = new SignJWT(payload).setProtectedHeader({ alg: 'HS256' }).setIssuedAt();
  if (payload.exp === undefined) jwt.setExpirationTime('1h');
  return jwt.sign(new TextEncoder().encode(secret));
}

export interface Caller {
  userId: string;
  groupId: string;
  doctor: string;
  token: string;
  headers: Record<string, string>;
}

/** A user of a fresh group with its token and the clinical headers. */
export async function newCaller(groupId = `group-${randomUUID()}`): Promise<Caller> {
  const userId = `user-${randomUUID()}`;
  const doctor = `dr-${randomUUID().slice(0, 8)}`;
  const token = await tokenFor({ sub: userId, group_id: groupId });
  return { userId, groupId, doctor, token, headers: { authorization: `Bearer ${token}`, 'x-doctor': doctor } };
}
