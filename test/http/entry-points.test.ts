import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { VERSION } from '../../src/lib/version.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';

describe('GET /', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  it('sends a browser to the API reference', async () => {
    const res = await request(t.app).get('/').set('accept', 'text/html,application/xhtml+xml,*/*;q=0.8');
    expect(res.status).toBe(302);
    expect(res.headers.location).toBe('/docs');
  });

  it('answers any other client with the entry points, each of which answers', async () => {
    const res = await request(t.app).get('/');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      name: 'clinigate',
      version: VERSION,
      docs: '/docs',
      openapi: '/openapi.json',
      health: '/api/v1/health',
      metrics: '/metrics',
      console: '/console',
    });
    for (const path of [res.body.docs, res.body.openapi, res.body.health, res.body.metrics, res.body.console]) {
      expect((await request(t.app).get(path).redirects(1)).status, path).toBe(200); // /console adds its slash
    }
  });
});
