import { Validator } from '@seriousme/openapi-schema-validator';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildOpenApiDocument, type OpenApiDocument } from '../../src/openapi/document.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';
import { appRoutes } from './app-routes.js';

type SpecData = Parameters<Validator['validate']>[0];

const METHODS = ['get', 'post', 'put', 'patch', 'delete'] as const;

type Operation = {
  security?: Record<string, string[]>[];
  parameters?: { name: string; in: string; required?: boolean }[];
  responses: Record<string, { content?: Record<string, { schema?: { $ref?: string } }> }>;
};

function documentedOperations(doc: OpenApiDocument): { key: string; op: Operation; path: string }[] {
  return Object.entries(doc.paths ?? {}).flatMap(([path, item]) =>
    METHODS.filter((m) => (item as Record<string, unknown>)[m]).map((m) => ({
      key: `${m.toUpperCase()} ${path}`,
      op: (item as Record<string, Operation>)[m],
      path,
    })),
  );
}

describe('OpenAPI document', () => {
  let t: TestApp;
  let doc: OpenApiDocument;
  beforeAll(async () => {
    t = await startTestApp();
    doc = (await request(t.app).get('/openapi.json').expect(200)).body;
  });
  afterAll(() => t.close());

  it('is served at /openapi.json without credentials, as built from the schemas', async () => {
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.info).toMatchObject({ title: 'Clinigate', version: (await import('../../src/lib/version.js')).VERSION });
    expect(doc).toEqual(JSON.parse(JSON.stringify(buildOpenApiDocument())));
  });

  it('documents every route the app serves, and nothing it does not', () => {
    const served = appRoutes(t).map((r) => `${r.method.toUpperCase()} ${r.path}`);
    const documented = documentedOperations(doc).map((o) => o.key);
    expect(served.length).toBeGreaterThan(30);
    expect(served.filter((r) => !documented.includes(r))).toEqual([]);
    expect(documented.filter((d) => !served.includes(d))).toEqual([]);
  });

  it('validates as OpenAPI 3.1 (and the validator does refuse a broken document)', async () => {
    const validator = new Validator();
    const result = await validator.validate(structuredClone(doc) as unknown as SpecData);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    expect(validator.version).toBe('3.1');

    const broken = structuredClone(doc) as unknown as { paths: Record<string, Record<string, { responses: unknown }>> };
    broken.paths['/v1/codify'].post.responses = 'none';
    expect((await new Validator().validate(broken as unknown as SpecData)).valid).toBe(false);
  });

  it('gives every operation its credentials, headers and error bodies', () => {
    for (const { key, op, path } of documentedOperations(doc)) {
      const headers = (op.parameters ?? []).filter((p) => p.in === 'header');
      const errors = Object.entries(op.responses).filter(([status]) => Number(status) >= 400);
      expect(
        Object.keys(op.responses).some((s) => s.startsWith('2')),
        key,
      ).toBe(true);
      expect(op.responses['500'], key).toBeDefined();
      if (path.startsWith('/v1/')) {
        expect(op.security, key).toEqual([{ BearerAuth: [] }]);
        expect(headers.find((h) => h.name === 'x-doctor')?.required, key).toBe(true);
        expect(headers.find((h) => h.name === 'x-patient')?.required, key).toBe(false);
        expect(op.responses['401'] && op.responses['400'], key).toBeDefined();
      } else if (path.startsWith('/api/v1/webhooks/') && !path.includes('/events/')) {
        expect(op.security, key).toEqual([]);
        expect(headers.find((h) => h.name === 'X-Integration-Signature')?.required, key).toBe(true);
        expect(op.responses['401'], key).toBeDefined();
      } else if (path.startsWith('/api/v1/') && path !== '/api/v1/health') {
        expect(op.security, key).toEqual([{ ApiKeyAuth: [] }]);
        expect(op.responses['401'], key).toBeDefined();
      } else {
        expect(op.security, key).toEqual([]);
      }
      for (const [status, response] of errors) {
        if (key === 'GET /api/v1/health' && status === '503') continue; // the health body itself
        expect(response.content?.['application/json']?.schema?.$ref, `${key} ${status}`).toBe('#/components/schemas/ErrorDto');
      }
    }
  });

  it('documents the spec headers of the operations that take them', () => {
    const ops = Object.fromEntries(documentedOperations(doc).map((o) => [o.key, o.op]));
    const header = (key: string, name: string) => ops[key].parameters?.find((p) => p.in === 'header' && p.name === name);
    expect(header('POST /v1/agent/threads/{threadId}/runs', 'x-is-chat')).toMatchObject({ required: false });
    expect(header('PATCH /v1/clinical-notes/{id}', 'If-Match')).toMatchObject({ required: false });
    expect(header('POST /api/v1/calls/external-questionnaire', 'Idempotency-Key')).toMatchObject({ required: false });
    expect(Object.keys(ops['POST /v1/codify'].responses).sort()).toEqual([
      '200',
      '400',
      '401',
      '413',
      '415',
      '422',
      '429',
      '500',
      '503',
      '504',
    ]);
    expect(ops['POST /v1/agent/threads/{threadId}/runs'].responses['404']).toBeDefined();
    expect(ops['PATCH /v1/clinical-notes/{id}'].responses['412']).toBeDefined();
  });

  it('keeps the Dto suffix on component names and describes the outbound events as 3.1 webhooks', () => {
    const names = Object.keys(doc.components?.schemas ?? {});
    for (const name of [
      'ThreadDto',
      'RunDto',
      'TranscriptionDto',
      'ClinicalNoteDto',
      'CodeAssessmentDto',
      'CodifyResponseDto',
      'CallDto',
      'CenterDto',
      'ServiceDto',
      'HealthDto',
      'ErrorDto',
    ]) {
      expect(names).toContain(name);
    }
    expect(names.filter((n) => !n.endsWith('Dto'))).toEqual([]);
    expect(Object.keys(doc.webhooks ?? {}).sort()).toEqual([
      'call.completed',
      'call.updated',
      'codify.completed',
      'endpoint.failing',
      'endpoint.recovered',
      'note.amended',
      'note.created',
      'note.ready',
      'note.signed',
      'note.updated',
      'run.completed',
      'run.failed',
      'transcription.created',
    ]);
    expect(doc.components?.securitySchemes).toMatchObject({
      BearerAuth: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' },
      ApiKeyAuth: { type: 'apiKey', in: 'header', name: 'X-Api-Key' },
    });
  });
});
