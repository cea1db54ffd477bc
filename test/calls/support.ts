import { randomBytes } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import pg from 'pg';
import { inject } from 'vitest';
import { migrate } from '../../src/db/migrate.js';
import { createPool } from '../../src/db/pool.js';

export const PROVIDER_SECRET = `whsec_${randomBytes(32).toString('base64')}`;
export const API_KEY = 'test-api-key-current';

/**
 * A database of its own, migrated: dispatch tests start queue workers, and workers of other
 * test files (started without a provider) must not take this file's calls.
 */
export async function freshDatabase(): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `clinigate_calls_${randomBytes(5).toString('hex')}`;
  const admin = new pg.Client({ connectionString: inject('adminDatabaseUrl') });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(inject('adminDatabaseUrl'));
  url.pathname = `/${name}`;
  const pool = createPool(url.toString());
  await migrate(pool);
  await pool.end();
  return {
    url: url.toString(),
    drop: async () => {
      const a = new pg.Client({ connectionString: inject('adminDatabaseUrl') });
      await a.connect();
      await a.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`).catch(() => {});
      await a.end();
    },
  };
}

export interface ProviderRequest {
  at: number;
  headers: IncomingHttpHeaders;
  raw: string;
  body: Record<string, unknown>;
}

export interface FakeProvider {
  url: string;
  requests: ProviderRequest[];
  /** Answers for the next requests, in order; when none is left: 200 {id: "prov-<n>"}. */
  answers: Array<{ status: number; body?: unknown }>;
  close(): Promise<void>;
}

/** The voice provider, played by a real HTTP server on 127.0.0.1. */
export async function startFakeProvider(): Promise<FakeProvider> {
  const requests: ProviderRequest[] = [];
  const answers: FakeProvider['answers'] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const raw = Buffer.concat(chunks).toString('utf8');
      requests.push({ at: Date.now(), headers: req.headers, raw, body: JSON.parse(raw) });
      const answer = answers.shift() ?? { status: 200, body: { id: `prov-${requests.length}` } };
      res.writeHead(answer.status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(answer.body ?? {}));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}/calls`,
    requests,
    answers,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** Polls until check() returns a value (not undefined) or the time is up. */
export async function waitFor<T>(check: () => Promise<T | undefined>, timeoutMs = 20_000, everyMs = 100): Promise<T> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > until) throw new Error('waitFor: timed out');
    await new Promise((r) => setTimeout(r, everyMs));
  }
}

export const validCall = (overrides: Record<string, unknown> = {}) => ({
  questionnaireId: 'phq-9',
  phoneNumber: '+34915550142',
  ...overrides,
});
