import express, { type Express } from 'express';
import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { audited, auditedAtOnce, auditTrail } from '../../src/http/audit.js';
import { errorHandler } from '../../src/http/error-handler.js';
import { observeRequests } from '../../src/http/observe-requests.js';
import type { AuditEntry } from '../../src/lib/audit-entry.js';
import { notFound } from '../../src/lib/errors.js';
import { createLogger } from '../../src/lib/logger.js';

/** A bare app with the audit observer over everything and a log that keeps its rows in memory. */
function appWith(routes: (app: Express, log: { writeNow(e: AuditEntry): Promise<void> }) => void, failWrites = false) {
  const rows: AuditEntry[] = [];
  const log = {
    add: (e: AuditEntry) => rows.push({ ...e, at: undefined } as AuditEntry),
    writeNow: async (e: AuditEntry) => {
      if (failWrites) throw new Error('database away');
      rows.push({ ...e, operation: `now:${e.operation}` });
    },
  };
  const app = express();
  app.use((req, _res, next) => {
    req.requestId = 'r1';
    next();
  });
  app.use(observeRequests([auditTrail(log, ['/x'])]));
  routes(app, log);
  app.use(errorHandler(createLogger('error', { silent: true })));
  const resources = async () => {
    await new Promise((r) => setTimeout(r, 10));
    return rows.map((r) => [r.operation, r.resourceId, r.status]);
  };
  return { app, rows, resources };
}

describe('audit declarations', () => {
  it('names the path parameter, whatever the outcome', async () => {
    const { app, resources } = appWith((a) => {
      a.get('/x/things/:thingId', audited({ param: 'thingId' }), () => {
        throw notFound('Thing', 'abc');
      });
    });
    await request(app).get('/x/things/abc').expect(404);
    expect(await resources()).toEqual([['GET /x/things/:thingId', 'abc', 404]]);
  });

  it('names a created resource by a field of the answer, only when it succeeded', async () => {
    const { app, resources } = appWith((a) => {
      a.post('/x/notes', audited({ created: { body: 'note.id' } }), (req, res) => {
        if (req.query.fail) res.status(409).json({ note: { id: 'not-this' } });
        else res.status(201).json({ note: { id: 'n-1' } });
      });
    });
    await request(app).post('/x/notes').expect(201);
    await request(app).post('/x/notes?fail=1').expect(409);
    expect(await resources()).toEqual([
      ['POST /x/notes', 'n-1', 201],
      ['POST /x/notes', undefined, 409],
    ]);
  });

  it('names a created resource by the last segment of a header, else the path parameter', async () => {
    const { app, resources } = appWith((a) => {
      a.post('/x/threads/:threadId/runs', audited({ param: 'threadId', created: { header: 'content-location' } }), (req, res) => {
        if (req.query.fail) throw notFound('Thread', String(req.params.threadId));
        res.setHeader('content-location', `/x/threads/${req.params.threadId}/runs/run-9`);
        res.status(201).json({});
      });
    });
    await request(app).post('/x/threads/t-1/runs').expect(201);
    await request(app).post('/x/threads/t-2/runs?fail=1').expect(404);
    expect(await resources()).toEqual([
      ['POST /x/threads/:threadId/runs', 'run-9', 201],
      ['POST /x/threads/:threadId/runs', 't-2', 404],
    ]);
  });

  it('writes an at-once row before the answer, as the only row of the request', async () => {
    const { app, rows } = appWith((a, log) => {
      a.get('/x/runs/:id', auditedAtOnce(log, { param: 'id', operation: 'console.view run' }), (req, res) => {
        if (req.params.id === 'missing') throw notFound('Run', 'missing');
        // The row is there before the answer leaves.
        res.json({ rowsWhenAnswered: 'see below' });
      });
    });
    await request(app).get('/x/runs/r-1').expect(200);
    expect(rows.map((r) => [r.operation, r.resourceId, r.status])).toEqual([['now:console.view run', 'r-1', 200]]);
    await request(app).get('/x/runs/missing').expect(404);
    await new Promise((r) => setTimeout(r, 10));
    expect(rows.map((r) => [r.operation, r.resourceId, r.status])).toEqual([
      ['now:console.view run', 'r-1', 200],
      ['now:console.view run', 'missing', 404],
    ]);
  });

  it('answers 500 rather than show what it could not record, and leaves the usual row', async () => {
    const { app, resources } = appWith((a, log) => {
      a.get('/x/runs/:id', auditedAtOnce(log, { param: 'id', operation: 'console.view run' }), (_req, res) => {
        res.json({ phi: 'never shown unrecorded' });
      });
    }, true);
    const res = await request(app).get('/x/runs/r-2').expect(500);
    expect(JSON.stringify(res.body)).not.toContain('never shown');
    expect((await resources()).map(([operation, , status]) => [operation, status])).toEqual([['GET /x/runs/:id', 500]]);
  });
});
