import { randomUUID } from 'node:crypto';
import { describe, expect, inject, it } from 'vitest';
import { parseConfig } from '../../src/config.js';
import { createPool } from '../../src/db/pool.js';
import { createLogger } from '../../src/lib/logger.js';
import { openRuntime } from '../../src/runtime.js';
import { testEnv } from '../helpers/test-app.js';

describe('audit rows at shutdown', () => {
  it('are all written by runtime.stop(), also those gathered while the writer pauses between writes', async () => {
    const config = parseConfig(testEnv());
    const runtime = await openRuntime(config, inject('databaseUrl'), createLogger('error', { silent: true }), { supervise: false });
    const prefix = `shutdown-${randomUUID()}`;
    // The first row is written at once; the rest arrive while that write runs, so they wait for
    // the writer's next turn, which stop() must not leave behind.
    for (let i = 0; i < 200; i++)
      runtime.deps.audit.add({ at: new Date(), requestId: `${prefix}-${i}`, operation: 'POST /v1/agent/threads', status: 401 });
    await runtime.stop({ graceful: false });

    const pool = createPool(inject('databaseUrl'), 1);
    // SQL: the runtime is stopped, so no app is left to ask; the point is that stop() wrote every row.
    const { rows } = await pool.query(`SELECT count(*)::int AS n FROM audit_log WHERE request_id LIKE $1`, [`${prefix}-%`]);
    await pool.end();
    expect(rows[0].n).toBe(200);
  });
});
