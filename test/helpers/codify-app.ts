import { expect } from 'vitest';
import request from 'supertest';
import { startJobLoops } from '../../src/jobs/define-job.js';
import { codifyJob } from '../../src/modules/codify/codify.job.js';
import { startTestApp, type TestApp, type TestAppOptions } from './test-app.js';
import type { Caller } from './tokens.js';
import { isolatedDatabase, type IsolatedDatabase } from './isolated-database.js';

export interface CodifyApp extends TestApp {
  db: IsolatedDatabase;
}

/** The app on a database of its own, with the codify worker running in it (unless worker: false). */
export async function startCodifyApp(
  label: string,
  options: TestAppOptions & { worker?: boolean; db?: IsolatedDatabase } = {},
): Promise<CodifyApp> {
  const db = options.db ?? (await isolatedDatabase(`test_${label}`));
  const t = await startTestApp({ ...options, env: { ...options.env, DATABASE_URL: db.url } });
  if (options.worker !== false) await startJobLoops(t.deps, codifyJob);
  return {
    ...t,
    db,
    close: async () => {
      await t.close();
      if (!options.db) await db.drop();
    },
  };
}

export const codify = (t: TestApp, caller: Caller, body: unknown) =>
  request(t.app)
    .post('/v1/codify')
    .set(caller.headers)
    .send(body as object);

export const ASSESSMENT = {
  code: expect.stringMatching(/^[A-Z][0-9][0-9A-Z](\.[0-9A-Z]{1,4})?$/),
  description: expect.any(String),
  justification: expect.any(String),
  confidence_percent: expect.any(Number),
  evidence: expect.any(Array),
  traits: expect.any(Array),
};
