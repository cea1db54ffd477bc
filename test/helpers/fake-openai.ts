import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One scripted answer of the fake chat-completions endpoint. */
export interface Scripted {
  status?: number; // 200 unless set
  headers?: Record<string, string>;
  /** the assistant message of a normal completion */
  content?: string;
  usage?: { prompt_tokens: number; completion_tokens: number };
  /** a JSON body sent as is, instead of a completion */
  body?: unknown;
  /** wait this long before answering (time-out tests) */
  delayMs?: number;
}

export interface RecordedRequest {
  at: number; // Date.now() on arrival
  path: string;
  headers: IncomingMessage['headers'];
  body: {
    model: string;
    messages: Array<{ role: string; content: string }>;
    response_format?: { type: string; json_schema?: { name: string; schema: Record<string, unknown>; strict?: boolean } };
    [key: string]: unknown;
  };
}

export interface FakeOpenAI {
  /** base URL for OPENAI_BASE_URL, ending in /v1 */
  url: string;
  requests: RecordedRequest[];
  /** queue answers, served in order, one per request */
  script(...answers: Scripted[]): void;
  /** answers not served yet */
  remaining(): number;
  /** forget queued answers and recorded requests (between tests) */
  reset(): void;
  close(): Promise<void>;
}

/** The body of a successful chat completion with `content`. */
export function completion(content: string, usage = { prompt_tokens: 11, completion_tokens: 7 }, model = 'fake-model') {
  return {
    id: `chatcmpl-${Math.random().toString(36).slice(2)}`,
    object: 'chat.completion',
    created: Math.floor(Date.now() / 1000),
    model,
    choices: [{ index: 0, message: { role: 'assistant', content, refusal: null }, finish_reason: 'stop', logprobs: null }],
    usage: { ...usage, total_tokens: usage.prompt_tokens + usage.completion_tokens },
  };
}

/**
 * A real HTTP server on 127.0.0.1 speaking the chat-completions protocol (POST
 * /v1/chat/completions) with scripted answers; it records every request. An empty queue answers
 * 500 so a missing script shows up as a failure.
 */
export async function startFakeOpenAI(): Promise<FakeOpenAI> {
  const queue: Scripted[] = [];
  const requests: RecordedRequest[] = [];
  const timers = new Set<NodeJS.Timeout>();

  const send = (res: ServerResponse, answer: Scripted, model: string) => {
    if (res.destroyed || res.writableEnded) return; // the client gave up (time-out)
    const status = answer.status ?? 200;
    const body =
      answer.body !== undefined
        ? answer.body
        : status === 200
          ? completion(answer.content ?? '', answer.usage, model)
          : { error: { message: `scripted ${status}`, type: 'scripted', code: null } };
    res.writeHead(status, { 'content-type': 'application/json', ...answer.headers });
    res.end(JSON.stringify(body));
  };

  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      if (req.method !== 'POST' || req.url !== '/v1/chat/completions') {
        res.writeHead(404, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ error: { message: 'not found' } }));
        return;
      }
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}');
      requests.push({ at: Date.now(), path: req.url, headers: req.headers, body });
      const answer = queue.shift() ?? { status: 500, body: { error: { message: 'no scripted answer left' } } };
      if (!answer.delayMs) return send(res, answer, body.model);
      const t = setTimeout(() => {
        timers.delete(t);
        send(res, answer, body.model);
      }, answer.delayMs);
      timers.add(t);
    });
  });
  // An idle client socket stays open for the whole test: with Node's default 5 s, a call made after
  // the event loop was busy for seconds (the first codify loads the shipped Index) could race the
  // server closing its kept-alive socket, and the client's retry would then be the server's only
  // request, which breaks tests that count requests.
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}/v1`,
    requests,
    script: (...answers) => void queue.push(...answers),
    remaining: () => queue.length,
    reset: () => {
      queue.length = 0;
      requests.length = 0;
    },
    close: async () => {
      for (const t of timers) clearTimeout(t);
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** Environment for ENGINE=openai against `fake` (parseConfig input). */
export function openaiEnv(fake: { url: string }, overrides: Record<string, string> = {}): NodeJS.ProcessEnv {
  return {
    NODE_ENV: 'test',
    ENGINE: 'openai',
    OPENAI_BASE_URL: fake.url,
    OPENAI_API_KEY: 'sk-test',
    OPENAI_MODEL: 'test-model',
    OPENAI_TIMEOUT_MS: '5000',
    OPENAI_MAX_RETRIES: '2',
    LOG_LEVEL: 'debug',
    ...overrides,
  };
}
