import { randomBytes } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';

/** The secret the service signs its calls to the voice provider with (VOICE_PROVIDER_SECRET in tests). */
export const PROVIDER_SECRET = `whsec_${randomBytes(32).toString('base64')}`;

export interface ProviderRequest {
  at: number;
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  raw: string;
  body: Record<string, unknown>;
}

export interface FakeProvider {
  url: string;
  requests: ProviderRequest[];
  /** Answers for the next POSTs, in order; when none is left: 200 {id: "prov-<n>"}. */
  answers: Array<{ status: number; body?: unknown }>;
  /** What `GET .../calls/{providerCallId}` answers, by provider call id (none: 404). */
  callStatus: Map<string, { status: number; body?: unknown }>;
  close(): Promise<void>;
}

/** The voice provider, played by a real HTTP server on 127.0.0.1. */
export async function startFakeProvider(): Promise<FakeProvider> {
  const requests: ProviderRequest[] = [];
  const answers: FakeProvider['answers'] = [];
  const callStatus: FakeProvider['callStatus'] = new Map();
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const raw = Buffer.concat(chunks).toString('utf8');
      const path = req.url ?? '';
      requests.push({ at: Date.now(), method: req.method ?? '', path, headers: req.headers, raw, body: raw ? JSON.parse(raw) : {} });
      const asked = req.method === 'GET' ? decodeURIComponent(path.split('/').pop() ?? '') : undefined;
      const answer =
        asked !== undefined
          ? (callStatus.get(asked) ?? { status: 404, body: {} })
          : (answers.shift() ?? { status: 200, body: { id: `prov-${requests.length}` } });
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
    callStatus,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
