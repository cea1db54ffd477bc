/**
 * The catalog event's time behind held pipelines (issue 30; the held-out check of issue 19's
 * step): the real service (`src/main.ts` in a child process, ROLE=all) with ENGINE=openai against
 * an OpenAI-compatible model server on 127.0.0.1 (test/helpers/fake-openai.ts) that holds every
 * request for `holdMs` (25 s), eight signed `encounter.transcript` visits posted, and once the
 * model holds their extractions a signed `center.upserted`: the figure is the time from posting
 * the catalog event until `GET /api/v1/centers` lists the center. The visits' pipelines are all
 * still open then (checked: no note.ready has arrived). A figure, not a timed test.
 *
 *   tsx bench/held-catalog.ts [--visits 8] [--hold-ms 25000]
 */
import { parseArgs } from 'node:util';
import { startFakeOpenAI } from '../test/helpers/fake-openai.js';
import { isMain, runStandalone } from './lib/standalone.js';
import type { BenchContext, BenchResult } from './lib/types.js';
import { centerEvent, encounter, eventStatus, OPERATOR_KEY, post, startPipelineService, until } from './pipeline-latency.js';

export interface HeldCatalogOptions extends BenchContext {
  visits?: number;
  holdMs?: number;
  /** The project tree whose service runs (bench/compare-trees.ts); this one by default. */
  root?: string;
  name?: string;
}

export interface HeldCatalog {
  /** ms from posting the catalog event to the first GET that lists the center. */
  listedMs: number;
  /** Extraction requests the model server held when the catalog event was posted. */
  held: number;
  /** Visits whose note.ready had arrived when the center was listed (0: all still held). */
  notesBefore: number;
  /** The visits' inbound-event status when the center was listed, counted. */
  visitStates: Record<string, number>;
}

async function listed(port: number, name: string, id: string): Promise<boolean> {
  const res = await fetch(`http://127.0.0.1:${port}/api/v1/centers?q=${encodeURIComponent(name)}`, {
    headers: { 'x-api-key': OPERATOR_KEY },
  });
  if (res.status !== 200) throw new Error(`GET /api/v1/centers answered ${res.status}: ${await res.text()}`);
  return (await res.text()).includes(`"${id}"`);
}

/** One measurement on a fresh service and database. */
export async function measureHeldCatalog(options: HeldCatalogOptions): Promise<HeldCatalog> {
  const visits = options.visits ?? 8;
  const holdMs = options.holdMs ?? 25_000;
  const model = await startFakeOpenAI();
  // Every request the model gets is held, then answered 503: far more answers than requests.
  model.script(...Array.from({ length: 200 }, () => ({ delayMs: holdMs, status: 503 })));
  const service = await startPipelineService(options.adminUrl, {
    root: options.root,
    name: options.name,
    env: {
      ENGINE: 'openai',
      OPENAI_BASE_URL: model.url,
      OPENAI_API_KEY: 'sk-bench',
      OPENAI_MODEL: 'bench-model',
      OPENAI_TIMEOUT_MS: String(holdMs * 2),
      OPENAI_MAX_RETRIES: '0',
    },
  });
  try {
    const patients = Array.from({ length: visits }, (_, i) => `pt-held-${i}`);
    const events = patients.map((p) => encounter(p));
    await Promise.all(events.map((e) => post(service.port, e)));
    // The extractions reach the model as the run loops take them (at most a few at once): wait
    // until one is held and no other arrived for a second.
    await until('an extraction held by the model', () => model.requests.length > 0, 60_000);
    for (let n = -1; n !== model.requests.length;) {
      n = model.requests.length;
      await new Promise((r) => setTimeout(r, 1_000));
    }
    const held = model.requests.length;
    const first = Math.min(...model.requests.map((r) => r.at));
    const id = `bench-held-${Date.now()}`;
    const center = centerEvent(id, `Held Center ${id}`);
    const posted = performance.now();
    await post(service.port, center);
    await until('the center listed', () => listed(service.port, `Held Center ${id}`, id), 60_000);
    const listedMs = performance.now() - posted;
    if (Date.now() - first >= holdMs) throw new Error(`the first extraction was released before the center was listed`);
    const notesBefore = patients.filter((p) => service.arrived.has(p)).length;
    const visitStates: Record<string, number> = {};
    for (const e of events) {
      const s = await eventStatus(service.port, e.id);
      visitStates[s] = (visitStates[s] ?? 0) + 1;
    }
    return { listedMs, held, notesBefore, visitStates };
  } finally {
    // The model goes first: the service's held calls fail at once, so it stops without waiting.
    await model.close();
    await service.stop();
  }
}

export const describeHeld = (m: HeldCatalog) =>
  `${m.held} extraction(s) held by the model when posted; visits ${Object.entries(m.visitStates)
    .map(([s, n]) => `${n} ${s}`)
    .join(', ')}, ${m.notesBefore} note.ready before the listing`;

export async function run(options: HeldCatalogOptions): Promise<BenchResult[]> {
  const visits = options.visits ?? 8;
  options.log(`held: a catalog event behind ${visits} visits held by the model`);
  const m = await measureHeldCatalog(options);
  return [
    {
      name: `catalog event listed behind ${visits} held pipelines`,
      value: m.listedMs,
      unit: 'ms',
      note: describeHeld(m),
    },
  ];
}

if (isMain(import.meta.url)) {
  const { values } = parseArgs({ options: { visits: { type: 'string', default: '8' }, 'hold-ms': { type: 'string', default: '25000' } } });
  await runStandalone((ctx) => run({ ...ctx, visits: Number(values.visits), holdMs: Number(values['hold-ms']) }));
}
