import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ClinicalEngine } from '../../src/engine/engine.js';
import { LocalEngine } from '../../src/engine/local/local-engine.js';
import { CodeTable } from '../../src/terminology/code-table.js';
import { starterRows } from '../../src/terminology/starter-catalog.js';
import { codify, startCodifyApp, type CodifyApp } from '../helpers/codify-app.js';
import { newCaller } from '../helpers/tokens.js';

/** Every engine codification takes this long, and codes nothing: far shorter than the codify queue's poll (1 s). */
const ENGINE_MS = 100;

function slowCodifyEngine(real: ClinicalEngine): ClinicalEngine {
  return {
    name: real.name,
    chat: (m, o) => real.chat(m, o),
    extractNote: (t, tpl, o) => real.extractNote(t, tpl, o),
    codify: async () => {
      await new Promise((r) => setTimeout(r, ENGINE_MS));
      return { final_code_assessments: [], discarded_code_assessments: [] };
    },
  };
}

/**
 * A group holds at most 3 of the codify queue's 4 loops (codify.job.ts localGroupConcurrency). Its
 * further codifications wait in the queue until one of its own ends; the loop that ends it must
 * take the next at once, not after sleeping out the rest of its poll.
 */
describe('the codify queue: a codification queued behind its group is taken when one ends', () => {
  let t: CodifyApp;
  beforeAll(async () => {
    t = await startCodifyApp('codify_queue', { deps: { engine: slowCodifyEngine(new LocalEngine(() => new CodeTable(starterRows()))) } });
  });
  afterAll(() => t?.close());

  it('starts each of ten queued codifications within 400 ms of its group freeing a slot, not a poll (1 s) later', async () => {
    const caller = await newCaller();
    // Warm up (the code table, the loops' first fetch).
    expect((await codify(t, caller, { medical_note: 'Known hypertension, well controlled.' })).status).toBe(200);

    const started = performance.now();
    const answers = await Promise.all(
      Array.from({ length: 10 }, (_, i) => codify(t, caller, { medical_note: `Visit ${i}: known hypertension, well controlled.` })),
    );
    const wallMs = performance.now() - started;
    expect(answers.map((a) => a.status)).toEqual(Array(10).fill(200));

    // SQL: when each job started and ended is pg-boss's record, which no API shows. For each job
    // that had to wait for its group, how long it stood waiting once a slot of its group was free.
    const { rows } = await t.deps.pool.query<{ started: Date; completed: Date; created: Date }>(
      `SELECT started_on AS started, completed_on AS completed, created_on AS created FROM pgboss.job
        WHERE name = 'codify' AND group_id = $1 ORDER BY started_on`,
      [caller.groupId],
    );
    const jobs = rows.slice(1); // the warm-up's
    expect(jobs).toHaveLength(10);
    // A queued job can start once at most 2 of the group's jobs started before it are still going
    // (the group's cap, 3): from the (n-2)th end among the n started before it.
    const idle = jobs.slice(3).map((job, i) => {
      const ends = jobs
        .slice(0, i + 3)
        .map((j) => j.completed.getTime())
        .sort((a, b) => a - b);
      return Math.max(0, job.started.getTime() - Math.max(ends[i], job.created.getTime()));
    });
    console.log(
      `codify queue: wall ${Math.round(wallMs)} ms for 10, engine ${ENGINE_MS} ms each; idle slots before each queued job (ms): ${idle.join(', ')}`,
    );
    for (const ms of idle) expect(ms).toBeLessThan(400);
  });
});
