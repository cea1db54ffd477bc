import request from 'supertest';
import { expect } from 'vitest';
import { TEST_OPERATOR_KEY } from './test-app.js';
import type { Caller } from './tokens.js';
import type { AuditEvent } from '../../src/modules/audit/audit.repo.js';

/**
 * Reading state back through the API (STYLE.md, trait 12), for tests that would otherwise read
 * the table. Each read expects the answer a reader relies on (200) and returns its body.
 */
export type App = Parameters<typeof request>[0];

export const OPERATOR = { 'x-api-key': TEST_OPERATOR_KEY };

async function read(app: App, path: string, headers: Record<string, string>) {
  const res = await request(app).get(path).set(headers);
  expect(res.status, `GET ${path}`).toBe(200);
  return res.body;
}

/** GET /v1/clinical-notes/{id} as a caller of the note's group. */
export const readNote = (app: App, caller: Caller, id: string) => read(app, `/v1/clinical-notes/${id}`, caller.headers);

/** The version numbers GET /v1/clinical-notes/{id}/versions lists, oldest first. */
export async function readNoteVersions(app: App, caller: Caller, id: string): Promise<number[]> {
  const body = await read(app, `/v1/clinical-notes/${id}/versions`, caller.headers);
  return body.versions.map((v: { version: number }) => v.version);
}

/** GET /api/v1/console/runs/{id}: the run with its attempts, group and correlation id (operator key). */
export const readConsoleRun = (app: App, id: string) => read(app, `/api/v1/console/runs/${id}`, OPERATOR);

const eventPath = (senderId: string, source?: string) =>
  `/api/v1/webhooks/events/${encodeURIComponent(senderId)}${source ? `?source=${source}` : ''}`;

/** GET /api/v1/console/{runs|codifications|pipelines}: the newest 200 (ids, states, counts; operator key). */
export const readConsoleList = (app: App, list: 'runs' | 'codifications' | 'pipelines', status?: string) =>
  read(app, `/api/v1/console/${list}?limit=200${status ? `&status=${status}` : ''}`, OPERATOR);

/** GET /api/v1/webhooks/events/{id}: an inbound event's state, attempts and pipeline ids, never its data (operator key). */
export const readInboundEvent = (app: App, senderId: string, source?: string) => read(app, eventPath(senderId, source), OPERATOR);

/** GET /api/v1/webhooks/events/{id}, or undefined while the service answers 404 (never stored, or not yet). */
export async function findInboundEvent(app: App, senderId: string, source?: string) {
  const res = await request(app).get(eventPath(senderId, source)).set(OPERATOR);
  if (res.status === 404) return undefined;
  expect(res.status).toBe(200);
  return res.body;
}

/** What `GET /api/v1/audit-events` lists: the audit trail's own shape. */
export type { AuditEvent };

/**
 * GET /api/v1/audit-events with the filters, oldest first (the API answers newest first). The
 * search is itself audited, under the operator key's name and with no resource id.
 */
export async function readAuditEvents(
  app: App,
  filters: { resource_id?: string; patient?: string; user?: string; group_id?: string; since?: string },
): Promise<AuditEvent[]> {
  const query = new URLSearchParams({ ...filters, limit: '1000' } as Record<string, string>);
  const body = await read(app, `/api/v1/audit-events?${query}`, OPERATOR);
  return (body.items as AuditEvent[]).reverse();
}

/**
 * The audit rows a client's x-request-id left since `since` (oldest first). The API has no
 * client_request_id filter (DESIGN's filters), so this reads every row since then.
 */
export async function readAuditByClientRequestId(app: App, clientRequestId: string, since: string): Promise<AuditEvent[]> {
  return (await readAuditSince(app, since)).filter((r) => r.client_request_id === clientRequestId);
}

/** Every audit row since `since`, oldest first, paged back through GET /api/v1/audit-events (newest first). */
export async function readAuditSince(app: App, since: string): Promise<AuditEvent[]> {
  const seen = new Map<string, AuditEvent>();
  let until: string | undefined;
  for (;;) {
    const query = new URLSearchParams({ since, limit: '1000', ...(until ? { until } : {}) });
    const items = (await read(app, `/api/v1/audit-events?${query}`, OPERATOR)).items as AuditEvent[];
    for (const item of items) seen.set(item.id, item);
    if (items.length < 1000) break;
    // The next page ends just after the oldest row of this one (rows of that millisecond come again; kept once).
    const next = new Date(Date.parse(items.at(-1)!.at) + 1).toISOString();
    if (next === until) break;
    until = next;
  }
  return [...seen.values()].sort((a, b) => Number(a.id) - Number(b.id));
}
