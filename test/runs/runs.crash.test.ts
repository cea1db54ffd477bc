import request from 'supertest';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { startJobLoops } from '../../src/jobs/define-job.js';
import { runExecuteDeadJob } from '../../src/modules/runs/run-execute-dead.job.js';
import { runExecuteJob } from '../../src/modules/runs/run-execute.job.js';
import { readConsoleRun } from '../helpers/api-reads.js';
import { cleanEnv, signalGroup, spawnProcess, type Spawned } from '../helpers/process.js';
import { newCaller, type Caller } from '../helpers/tokens.js';
import { startRunsTestApp, type RunsTestApp } from './isolated-boss.js';
import { createRun, joinRun, newThread, runBody, VISIT, waitForStatus } from './runs.builders.js';

describe('a worker killed in the middle of runs', () => {
  let t: RunsTestApp;
  let caller: Caller;
  let child: Spawned | undefined;
  beforeAll(async () => {
    // API only for now, with pg-boss's supervisor every second: it retries jobs whose heartbeat stopped.
    t = await startRunsTestApp({ supervise: true });
    caller = await newCaller();
  });
  afterAll(async () => {
    if (child) signalGroup(child.child, 'SIGKILL');
    await t.close();
  });

  it('loses nothing: the retry re-executes, each run ends completed once, with no duplicate messages or notes', async () => {
    child = spawnProcess(
      'node',
      ['--import', 'tsx', 'test/helpers/slow-run-process.ts'],
      cleanEnv({ DATABASE_URL: inject('databaseUrl'), BOSS_SCHEMA: t.schema, ENGINE_DELAY_MS: '120000' }),
    );
    await expect.poll(() => child!.output(), { timeout: 30_000, interval: 100 }).toMatch(/runner-ready/);

    const chatThread = await newThread(t.app, caller);
    const chat = (await createRun(t.app, caller, chatThread, runBody(chatThread, `${VISIT}\nWhat is the plan?`))).body;
    const noteThread = await newThread(t.app, caller);
    const extraction = (await createRun(t.app, caller, noteThread, runBody(noteThread, VISIT), { 'x-is-chat': 'false' })).body;
    await waitForStatus(t.app, caller, chatThread, chat.run_id, 'running');
    await waitForStatus(t.app, caller, noteThread, extraction.run_id, 'running');
    await expect.poll(() => child!.output().match(/engine-start/g)?.length ?? 0, { timeout: 10_000 }).toBe(2);

    signalGroup(child.child, 'SIGKILL');
    await child.exited;
    // Killed mid-run: still running, never back to pending.
    expect((await request(t.app).get(`/v1/agent/threads/${chatThread}/runs/${chat.run_id}`).set(caller.headers)).body.status).toBe(
      'running',
    );

    // A worker in this process picks the runs up once their heartbeat has lapsed (10 s).
    await startJobLoops(t.deps, runExecuteJob);
    await startJobLoops(t.deps, runExecuteDeadJob);
    const chatRun = await joinRun(t.app, caller, chatThread, chat.run_id, 90);
    const noteRun = await joinRun(t.app, caller, noteThread, extraction.run_id, 90);
    expect(chatRun).toMatchObject({ status: 'completed', error: null });
    expect(noteRun).toMatchObject({ status: 'completed', error: null });

    for (const id of [chat.run_id, extraction.run_id]) expect((await readConsoleRun(t.app, id)).attempts).toBe(2);
    const thread = await request(t.app).get(`/v1/agent/threads/${chatThread}`).set(caller.headers);
    expect(thread.body.messages.map((m: { role: string }) => m.role)).toEqual(['user', 'assistant']);
    // SQL: nothing duplicated after the kill: no API lists the notes of a run, so only the table shows a second one.
    const notes = await t.deps.pool.query(`SELECT id FROM clinical_notes WHERE $1 = ANY(report_run_id)`, [extraction.run_id]);
    expect(notes.rows).toEqual([{ id: noteRun.output.note_id }]);
    // SQL: the outbox has no read API; one event per run, none duplicated by the retry.
    const events = await t.deps.pool.query(`SELECT type, count(*)::int AS n FROM outbox WHERE data->>'run_id' = ANY($1) GROUP BY type`, [
      [chat.run_id, extraction.run_id],
    ]);
    expect(events.rows).toEqual([{ type: 'run.completed', n: 2 }]);
  }, 120_000);
});
