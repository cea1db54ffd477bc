import { IncomingMessage, ServerResponse } from 'node:http';
import express from 'express';
import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { DirectRoutes } from '../../src/http/direct-routes.js';
import { answerError, errorHandler, notFoundHandler } from '../../src/http/error-handler.js';
import type { PlainHandler, PlainMiddleware } from '../../src/http/request-types.js';
import { sendJson } from '../../src/http/send-json.js';
import { AppError } from '../../src/lib/errors.js';
import { createLogger } from '../../src/lib/logger.js';

const logger = createLogger('error', { silent: true });

interface Seen {
  plainRequest: boolean;
  plainResponse: boolean;
  route: unknown;
  before: boolean;
}

/**
 * An Express app with one direct route whose handler says what it was given, and the request
 * listener in front of it (what the HTTP server gets); `before` marks the request.
 */
function appWith(handler: PlainHandler, before: PlainMiddleware = (_req, res, next) => (res.setHeader('x-before', 'ran'), next())) {
  const viaExpress = express();
  viaExpress.use(before);
  const direct = new DirectRoutes();
  direct.post(viaExpress, '/hot', handler);
  viaExpress.use(notFoundHandler);
  viaExpress.use(errorHandler(logger));
  return { listener: direct.listener(viaExpress, before, answerError(logger)), viaExpress };
}

function recordingApp() {
  const seen: Seen[] = [];
  const { listener: app, viaExpress } = appWith(async (req, res) => {
    seen.push({
      plainRequest: Object.getPrototypeOf(req) === IncomingMessage.prototype,
      plainResponse: Object.getPrototypeOf(res) === ServerResponse.prototype,
      route: req.route?.path,
      before: res.getHeader('x-before') === 'ran',
    });
    sendJson(res, 202, { ok: true });
  });
  return { app, viaExpress, seen };
}

describe("routes answered without Express (DirectRoutes' request listener)", () => {
  it("answers the exact method and URL on Node's own request and response, after the app-wide middlewares", async () => {
    const { app, seen } = recordingApp();
    const res = await request(app).post('/hot').send({ a: 1 });
    expect(res.status).toBe(202);
    expect(res.body).toEqual({ ok: true });
    expect(res.headers['x-before']).toBe('ran');
    expect(seen).toEqual([{ plainRequest: true, plainResponse: true, route: '/hot', before: true }]);
  });

  it('serves every other spelling of the path through the router, with the same handler and answer', async () => {
    const { app, seen } = recordingApp();
    for (const path of ['/hot/', '/HOT', '/hot?x=1']) {
      const res = await request(app).post(path).send({ a: 1 });
      expect(res.status, path).toBe(202);
      expect(res.body).toEqual({ ok: true });
    }
    expect(seen.map((s) => [s.plainRequest, s.route, s.before])).toEqual([
      [false, '/hot', true],
      [false, '/hot', true],
      [false, '/hot', true],
    ]);
  });

  it('leaves the Express app as it is: called itself, it serves the exact path through its router', async () => {
    const { viaExpress, seen } = recordingApp();
    const res = await request(viaExpress).post('/hot').send({ a: 1 });
    expect(res.status).toBe(202);
    expect(res.headers['x-before']).toBe('ran');
    expect(seen).toEqual([{ plainRequest: false, plainResponse: false, route: '/hot', before: true }]);
  });

  it('leaves other methods on the path to the router (404 there)', async () => {
    const { app, seen } = recordingApp();
    const res = await request(app).get('/hot');
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({ success: false, error: 'Not Found' });
    expect(seen).toEqual([]);
  });

  it("turns a handler's thrown error into the spec's error body, with its headers", async () => {
    const { listener: app } = appWith(async () => {
      throw new AppError(429, 'Slow down', { 'Retry-After': '7' });
    });
    const res = await request(app).post('/hot');
    expect(res.status).toBe(429);
    expect(res.headers['retry-after']).toBe('7');
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(res.body).toEqual({ success: false, error: 'Too Many Requests', details: 'Slow down' });
  });

  it('answers 500 with no internals for an unexpected error, and maps an error passed on by the middlewares', async () => {
    const { listener: crashing } = appWith(async () => {
      throw new Error('secret internals');
    });
    const crash = await request(crashing).post('/hot');
    expect(crash.status).toBe(500);
    expect(JSON.stringify(crash.body)).not.toContain('secret internals');

    const { listener: refusing } = appWith(
      async (_req, res) => sendJson(res, 202, {}),
      (_req, _res, next) => next(new AppError(403, 'Not yours')),
    );
    const refused = await request(refusing).post('/hot');
    expect(refused.status).toBe(403);
    expect(refused.body).toEqual({ success: false, error: 'Forbidden', details: 'Not yours' });
  });

  it('ends the connection, never the process, when the error mapper itself fails', async () => {
    const viaExpress = express();
    const direct = new DirectRoutes();
    direct.post(viaExpress, '/hot', async () => {
      throw new AppError(400, 'Bad');
    });
    const app = direct.listener(
      viaExpress,
      (_req, _res, next) => next(),
      () => {
        throw new Error('the mapper broke');
      },
    );
    await expect(request(app).post('/hot')).rejects.toThrow(/socket hang up|ECONNRESET/);
  });
});
