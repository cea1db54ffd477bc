import { SignJWT } from 'jose';
import { parseConfig, type Config } from '../../src/config.js';
import { migrate } from '../../src/db/migrate.js';
import { createPool } from '../../src/db/pool.js';
import { createLogger } from '../../src/lib/logger.js';
import { openRuntime, type Runtime, type RuntimeOptions } from '../../src/runtime.js';

export const BENCH_JWT_SECRET = 'bench-secret-that-is-long-enough-for-hs256';

/** The service's own runtime (openRuntime) on a migrated bench database, logging errors only. */
export async function openBenchRuntime(
  url: string,
  env: Record<string, string> = {},
  options: RuntimeOptions = {},
): Promise<{ runtime: Runtime; config: Config }> {
  const pool = createPool(url, 2);
  try {
    await migrate(pool);
  } finally {
    await pool.end();
  }
  const config = parseConfig({ NODE_ENV: 'test', DATABASE_URL: url, JWT_SECRET: BENCH_JWT_SECRET, LOG_LEVEL: 'error', ...env });
  const logger = createLogger('error', { silent: true });
  const runtime = await openRuntime(config, url, logger, { supervise: false, ...options });
  return { runtime, config };
}

/** Headers of a doctor of one bench group (HS256 token signed with the bench secret). */
export async function benchHeaders(): Promise<Record<string, string>> {
  const token = await new SignJWT({ sub: 'bench-user', group_id: 'bench-group' })
    .setProtectedHeader({ alg: 'HS256' })
    .setIssuedAt()
    .setExpirationTime('1h')
    .sign(new TextEncoder().encode(BENCH_JWT_SECRET));
  return { authorization: `Bearer ${token}`, 'x-doctor': 'bench-doctor', 'content-type': 'application/json' };
}
