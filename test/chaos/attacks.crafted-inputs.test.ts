import { mkdirSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IsolatedEngine } from '../../src/engine/isolated/isolated-engine.js';
import { capLineLengths } from '../../src/engine/isolated/line-cap.js';
import { parseTranscript } from '../../src/engine/local/extraction/transcript.js';
import { LocalEngine } from '../../src/engine/local/local-engine.js';
import { startJobLoops } from '../../src/jobs/define-job.js';
import { codifyJob } from '../../src/modules/codify/codify.job.js';
import { extractPdfText } from '../../src/modules/codify/pdf-extract.js';
import { CodeTable } from '../../src/terminology/code-table.js';
import { starterRows } from '../../src/terminology/starter-catalog.js';
import { isolatedDatabase } from '../helpers/receiver.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';
import { newCaller, type Caller } from '../helpers/tokens.js';
import { CRAFTED, craftedPdfs } from './crafted-inputs.js';

/**
 * Issue 16 item 4: no input may block the gateway. Every parser gets every crafted input under a
 * time bound, and every input goes through the front door (chat, extraction, codify, PDF) while
 * /api/v1/health is polled: its slowest answer must stay under a second. Bounds hold on a loaded
 * 2-core machine (the parsers take milliseconds on an idle one). The figures are written to
 * test-artifacts/crafted-inputs.json.
 */
const PARSER_BOUND_MS = 3_000;
const HEALTH_BOUND_MS = 1_000;
const REQUEST_BOUND_MS = 20_000;

interface Row {
  input: string;
  route: string;
  status: string;
  ms: number;
  worstHealthMs: number;
}
const rows: Row[] = [];

describe('attacks: crafted inputs against every parser, and the gateway stays responsive', () => {
  let db: Awaited<ReturnType<typeof isolatedDatabase>>;
  let t: TestApp;
  let server: Server;
  let base: string;
  let caller: Caller;
  beforeAll(async () => {
    db = await isolatedDatabase();
    t = await startTestApp({ env: { DATABASE_URL: db.url }, workers: true });
    server = createServer(t.app).listen(0, '127.0.0.1');
    await new Promise((r) => server.once('listening', r));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    caller = await newCaller();
  }, 60_000);
  afterAll(async () => {
    await new Promise<void>((r) => server?.close(() => r()));
    await t?.close();
    await db?.drop();
    mkdirSync('test-artifacts', { recursive: true });
    writeFileSync('test-artifacts/crafted-inputs.json', JSON.stringify(rows, null, 2));
    if (rows.length)
      console.log(
        rows
          .map(
            (r) =>
              `${r.route.padEnd(10)} ${String(r.status).padEnd(24)} ${String(r.ms).padStart(6)} ms  health ${String(r.worstHealthMs).padStart(4)} ms  ${r.input}`,
          )
          .join('\n'),
      );
  });

  const call = async (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) => {
    const res = await fetch(`${base}${path}`, {
      method,
      headers: { ...caller.headers, 'content-type': 'application/json', ...headers },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: res.status, body: (await res.json()) as Record<string, any> };
  };

  /** Runs `work` while polling health every 50 ms; records the slowest health answer. */
  async function underWatch(input: string, route: string, work: () => Promise<string>): Promise<string> {
    let worst = 0;
    let done = false;
    const poll = (async () => {
      while (!done) {
        const t0 = performance.now();
        const res = await fetch(`${base}/api/v1/health`);
        await res.arrayBuffer();
        worst = Math.max(worst, performance.now() - t0);
        await new Promise((r) => setTimeout(r, 50));
      }
    })();
    const t0 = performance.now();
    try {
      const status = await work();
      const ms = Math.round(performance.now() - t0);
      rows.push({ input, route, status, ms, worstHealthMs: Math.round(worst) });
      expect({ input, route, ms: ms < REQUEST_BOUND_MS, worstHealth: worst < HEALTH_BOUND_MS }).toEqual({
        input,
        route,
        ms: true,
        worstHealth: true,
      });
      return status;
    } finally {
      done = true;
      await poll;
    }
  }

  async function run(input: string, chat: boolean, threadId?: string): Promise<{ status: string; threadId: string }> {
    const thread = threadId ?? (await call('POST', '/v1/agent/threads', {})).body.thread_id;
    const created = await call(
      'POST',
      `/v1/agent/threads/${thread}/runs`,
      { input: { messages: [{ role: 'user', content: input }] }, config: { configurable: { thread_id: thread } } },
      { 'x-is-chat': String(chat) },
    );
    // Refused at the door (an extraction of a blank transcript): a clean 400 with the spec body.
    if (created.status === 400 && created.body.success === false) return { status: 'refused 400', threadId: thread };
    expect(created.status).toBe(201);
    const joined = await call('GET', `/v1/agent/threads/${thread}/runs/${created.body.run_id}/join?timeout=30`);
    const run = joined.body;
    return { status: run.status === 'failed' ? `failed: ${run.error?.error}` : run.status, threadId: thread };
  }

  it('every parser takes each crafted input within the bound (transcript, chat, extraction, coder)', async () => {
    const table = new CodeTable(starterRows());
    const engine = new LocalEngine(() => table);
    // Each parser's one-time start (the shipped Index, Tabular and tables, the sentence model) is
    // paid once with plain words: the bound is what a crafted input itself costs.
    parseTranscript('[doctor] plain words');
    await engine.chat([{ role: 'user', content: 'plain words' }]);
    await engine.extractNote('[doctor] plain words', 'SOAP');
    await engine.codify({ text: 'plain words', model: 'high-quality' });
    for (const { name, text: raw } of CRAFTED) {
      // As the gateway's engine gets it: lines capped (isolated-engine.ts).
      const text = capLineLengths(raw);
      const parsers: Array<[string, () => unknown]> = [
        ['transcript', () => parseTranscript(text)],
        ['chat', () => engine.chat([{ role: 'user', content: text }])],
        ['extraction', () => engine.extractNote(text, 'SOAP')],
        ['coder', () => engine.codify({ text, model: 'high-quality' })],
      ];
      for (const [parser, parse] of parsers) {
        const t0 = performance.now();
        await parse();
        const ms = performance.now() - t0;
        expect({ name, parser, ms: Math.round(ms) < PARSER_BOUND_MS }).toEqual({ name, parser, ms: true });
      }
    }
  }, 120_000);

  it('the PDF reader takes each crafted PDF within the bound, or stops at a limit', async () => {
    for (const { name, pdf } of craftedPdfs()) {
      const t0 = performance.now();
      const out = await extractPdfText(new Uint8Array(pdf)).catch((e: Error) => e.name);
      const ms = performance.now() - t0;
      expect({ name, out: typeof out === 'string' ? out : 'text', fast: ms < 10_000 }).toMatchObject({ name, fast: true });
    }
  }, 120_000);

  it('through the front door: chat, extraction and codify of each crafted input end cleanly while health answers within 1 s', async () => {
    await startJobLoops(t.deps, codifyJob);
    for (const { name, text } of CRAFTED) {
      let thread = '';
      const chat = await underWatch(name, 'chat', async () => {
        const r = await run(text, true);
        thread = r.threadId;
        return r.status;
      });
      expect(chat).toBe('completed');
      // The crafted message is now in the thread's history: the next chat must not pay for it again.
      const next = await underWatch(name, 'next chat', async () => (await run('and the plan?', true, thread)).status);
      expect(next).toBe('completed');
      const extraction = await underWatch(name, 'extraction', async () => (await run(text, false)).status);
      expect(['completed', 'refused 400', 'failed: Unprocessable Entity']).toContain(extraction);
      const codified = await underWatch(name, 'codify', async () =>
        String((await call('POST', '/v1/codify', { medical_note: text })).status),
      );
      expect(['200', '400', '422']).toContain(codified);
    }
  }, 600_000);

  it('through the front door: each crafted PDF is answered within the DESIGN limits while health answers within 1 s', async () => {
    for (const { name, pdf, expect: allowed } of craftedPdfs()) {
      const status = await underWatch(name, 'codify pdf', async () => {
        const res = await call('POST', '/v1/codify', { medical_note: 'Follow-up visit.', pdf_file: { data: pdf.toString('base64') } });
        return String(res.status);
      });
      expect({ name, status }).toEqual({ name, status: expect.toBeOneOf(allowed.map(String)) });
    }
  }, 300_000);

  it('a pattern that backtracks for seconds, run by the engine, costs its call only: the run fails and health still answers', async () => {
    // The engine of the gateway with the speaker-tag pattern of the incident, in its worker.
    const slowEngine = new IsolatedEngine({
      codeTable: () => new CodeTable(starterRows()),
      entry: new URL('../helpers/backtracking-engine-thread.ts', import.meta.url),
      budgetMs: 2_000,
      size: 1,
    });
    const db2 = await isolatedDatabase();
    const t2 = await startTestApp({ env: { DATABASE_URL: db2.url }, workers: true, deps: { engine: slowEngine } });
    const server2 = createServer(t2.app).listen(0, '127.0.0.1');
    await new Promise((r) => server2.once('listening', r));
    const saved = base;
    base = `http://127.0.0.1:${(server2.address() as AddressInfo).port}`;
    try {
      await startJobLoops(t2.deps, codifyJob);
      // The incident's input, longer (still under the 4,096-character line cap): its cubic
      // backtracking then takes ~4x as long, seconds past the 2 s budget even on a quiet machine.
      const freezer = { name: '"[" + 4,000 spaces + "!x"', text: '[' + ' '.repeat(4_000) + '!x' };
      expect(await underWatch(`${freezer.name}, old pattern`, 'chat', async () => (await run('[doctor] warm-up', true)).status)).toBe(
        'completed',
      );
      const chat = await underWatch(`${freezer.name}, old pattern`, 'chat', async () => (await run(freezer.text, true)).status);
      expect(chat).toBe('failed: Unprocessable Entity');
      const codified = await underWatch(`${freezer.name}, old pattern`, 'codify', async () =>
        String((await call('POST', '/v1/codify', { medical_note: freezer.text })).status),
      );
      expect(codified).toBe('422');
      expect(await underWatch('a plain message after it', 'chat', async () => (await run('plain words', true)).status)).toBe('completed');
    } finally {
      base = saved;
      await new Promise<void>((r) => server2.close(() => r()));
      await t2.close();
      await slowEngine.close();
      await db2.drop();
    }
  }, 120_000);
});
