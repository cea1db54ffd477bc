import type { JobResult, JobWithMetadata, PgBoss, Queue, SendOptions } from 'pg-boss';
import type { z } from 'zod';
import type { Queryable } from '../db/pool.js';
import type { Logger } from '../lib/logger.js';
import { runWithContext, type RequestContext } from '../lib/request-context.js';
import { isPermanent, jobError, retryableJobError } from './job-failure.js';
import { bossDb, groupBacklog } from './pgboss.repo.js';
import { paced } from './loop-pace.js';

/** A queue and its policy: retries, backoff, expiry, heartbeat. */
export interface QueueDefinition {
  name: string;
  options: Omit<Queue, 'name'>;
}

/** What every job loop needs; a job's own handler asks for more through its Deps. */
export interface JobDeps {
  boss: PgBoss;
  logger: Logger;
}

/** One delivery of a job to its handler. */
export interface JobAttempt {
  jobId: string;
  /** 1 for the first attempt */
  attempt: number;
  /** No retry follows a throw (retryCount >= retryLimit). */
  finalAttempt: boolean;
  /** pg-boss's signal: aborted when this process lost the job (expired, failed by heartbeat). */
  signal: AbortSignal;
  /** The failed job a dead-letter job was copied from. */
  sourceId?: string;
}

/** pg-boss fetch options of a job's loops, and how many of them (`work()` registrations) run in one process. */
export interface FetchOptions {
  batchSize?: number;
  localConcurrency?: number;
  pollingIntervalSeconds?: number;
  notifyPollingIntervalSeconds?: number;
  burstWhenBatchFull?: boolean;
  /**
   * This many loops (one work() registration, `localConcurrency` of them), each fetching its next
   * job as soon as its job ends instead of sleeping out its poll (the run queue: a thread's next
   * run starts at once).
   */
  selfWakingLoops?: number;
  /** A batch loop fetches at most this often unless its batch came back full (loop-pace.ts). */
  paceMs?: number;
  /**
   * In each process, at most this many of one group's (`groupOf`) jobs of the queue run at once,
   * fewer than the loops, so a flooding group always leaves the process a loop for the others.
   * pg-boss counts them in the process, across the registration's loops, so the bound is exact: a
   * job fetched past it (loops woken together race their fetches) is given back at once, still on
   * the same attempt, and the next fetch leaves its group out. Not a bound across processes: each
   * process runs up to this many of the group's jobs.
   */
  localGroupConcurrency?: number;
}

interface JobBase<D, Deps extends JobDeps> {
  queue: QueueDefinition;
  /** The job's data; a job whose data does not parse is logged (ids only) and dropped, never retried. */
  schema: z.ZodType<D>;
  fetch?: FetchOptions;
  /** Cron (pg-boss schedule): the job is sent on it by one process of the deployment. */
  schedule?: string;
  /**
   * Fair share between groups (DESIGN.md): the group whose work the job is. Such a job is sent as
   * pg-boss's `group` at priority -(the group's jobs already outstanding in this queue), so every
   * fetch, in any process, takes groups in turn (a group's first job before another's second);
   * with `fetch.localGroupConcurrency` no group runs more than that many of the queue's jobs at
   * once in a process, so a flood never takes all of a process's job loops.
   */
  groupOf?(data: D): string | undefined;
  /** Ids for every log line of the job (correlation id, group, doctor): never PHI. */
  context?(data: D): Omit<RequestContext, 'requestId'>;
  /**
   * After a permanent failure, or a throw on the final attempt: records the failure on the job's
   * own row (the run, the call, the event), and the job completes. Without it, a final throw
   * fails the job.
   */
  onFinalFailure?(deps: Deps, data: D, err: unknown): Promise<void>;
}

export interface SingleJob<D, Deps extends JobDeps> extends JobBase<D, Deps> {
  handle(deps: Deps, data: D, attempt: JobAttempt): Promise<void>;
}

export interface BatchItem<D> {
  data: D;
  attempt: JobAttempt;
}

/**
 * A batch job (perJobResults): the handler gets the batch's parsed jobs and returns those to
 * retry; the rest complete. It handles its own failures per item (final attempts included).
 */
export interface BatchJob<D, Deps extends JobDeps> extends JobBase<D, Deps> {
  handleBatch(deps: Deps, items: Array<BatchItem<D>>): Promise<Set<BatchItem<D>>>;
}

export type JobDefinition<D, Deps extends JobDeps> = (SingleJob<D, Deps> | BatchJob<D, Deps>) & {
  /** Sends the job inside the caller's transaction, so the row it serves and the job commit together. */
  send(boss: PgBoss, tx: Queryable, data: D, options?: Omit<SendOptions, 'db'>): Promise<void>;
};

/** A job of any data, for the registry's list. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyJob<Deps extends JobDeps = any> = JobDefinition<any, Deps>;

/** One file per queue declares its job with this: name and policy, data schema, producer and handler. */
export function defineJob<D, Deps extends JobDeps>(definition: SingleJob<D, Deps> | BatchJob<D, Deps>): JobDefinition<D, Deps> {
  return {
    ...definition,
    async send(boss, tx, data, options = {}) {
      const group = definition.groupOf?.(data);
      const fair = group ? { group: { id: group }, priority: -(await groupBacklog(tx, [definition.queue.name], group)).outstanding } : {};
      await boss.send(definition.queue.name, data as object, { ...fair, ...options, db: bossDb(tx) });
    },
  };
}

type Job = JobWithMetadata<unknown>;

/** The final attempt, one way for every queue: no retry is left when this one throws. */
export const isFinalAttempt = (job: Pick<Job, 'retryCount' | 'retryLimit'>) => (job.retryCount ?? 0) >= (job.retryLimit ?? 0);

function attemptOf(job: Job): JobAttempt {
  const attempt = (job.retryCount ?? 0) + 1;
  return { jobId: job.id, attempt, finalAttempt: isFinalAttempt(job), signal: job.signal, sourceId: job.sourceId ?? undefined };
}

/** Request id, one convention: the producer's (`request_id` in the data), else `job-<job id>`. */
export function jobRequestId(job: Pick<Job, 'id' | 'data'>): string {
  const given = (job.data as { request_id?: unknown } | null)?.request_id;
  return typeof given === 'string' && given ? given : `job-${job.id}`;
}

function parse<D>(deps: JobDeps, def: JobBase<D, JobDeps>, job: Job): D | undefined {
  const parsed = def.schema.safeParse(job.data);
  if (parsed.success) return parsed.data;
  deps.logger.error('job with malformed data; dropped', { queue: def.queue.name, job_id: job.id });
  return undefined;
}

async function runOne<D, Deps extends JobDeps>(deps: Deps, def: SingleJob<D, Deps>, job: Job): Promise<void> {
  const data = parse(deps, def, job);
  if (data === undefined) return;
  const attempt = attemptOf(job);
  await runWithContext({ ...def.context?.(data), requestId: jobRequestId(job) }, async () => {
    try {
      await def.handle(deps, data, attempt);
    } catch (err) {
      const permanent = isPermanent(err);
      const final = permanent || attempt.finalAttempt;
      const error = jobError(err).message;
      deps.logger.warn('job failed', { queue: def.queue.name, job_id: job.id, attempt: attempt.attempt, permanent, final, error });
      if (!final) throw retryableJobError(err);
      if (!def.onFinalFailure) {
        if (permanent) return;
        throw retryableJobError(err);
      }
      try {
        await def.onFinalFailure(deps, data, err);
      } catch (failure) {
        throw retryableJobError(failure);
      }
    }
  });
}

async function runBatch<D, Deps extends JobDeps>(deps: Deps, def: BatchJob<D, Deps>, jobs: Job[]): Promise<JobResult[]> {
  const results: JobResult[] = [];
  const items = new Map<BatchItem<D>, string>();
  for (const job of jobs) {
    const data = parse(deps, def, job);
    if (data === undefined) results.push({ id: job.id, status: 'completed' });
    else items.set({ data, attempt: attemptOf(job) }, job.id);
  }
  const retry = await def.handleBatch(deps, [...items.keys()]);
  for (const [item, id] of items) {
    const failed = { name: 'JobFailure', message: 'processing failed; retried' };
    results.push(retry.has(item) ? { id, status: 'failed', output: failed } : { id, status: 'completed' });
  }
  return results;
}

/**
 * Starts the job's loops: its `work()` registration(s) on the given pg-boss (the job runner passes
 * an instrumented one), and its schedule if it has one.
 */
export async function startJobLoops<Deps extends JobDeps>(deps: Deps, def: AnyJob<Deps>): Promise<void> {
  const { selfWakingLoops, paceMs, ...fetch } = def.fetch ?? {};
  if (def.schedule) await deps.boss.schedule(def.queue.name, def.schedule);
  if ('handleBatch' in def) {
    const options = { ...fetch, includeMetadata: true, perJobResults: true } as const;
    const handler = (jobs: Job[]) => runBatch(deps, def, jobs);
    await deps.boss.work(def.queue.name, options, paceMs ? paced(handler, { batchSize: fetch.batchSize ?? 1, paceMs }) : handler);
    return;
  }
  // The loops of one registration share pg-boss's count of each group's running jobs
  // (localGroupConcurrency): separate registrations would not.
  const options = { batchSize: 1, ...fetch, ...(selfWakingLoops && { localConcurrency: selfWakingLoops }), includeMetadata: true } as const;
  let loopsId = '';
  loopsId = await deps.boss.work(def.queue.name, options, async ([job]: Job[]) => {
    try {
      await runOne(deps, def, job);
    } finally {
      if (selfWakingLoops) wakeBusyLoops(deps.boss, loopsId);
    }
  });
}

/**
 * Each busy loop of the registration fetches again as soon as its job ends: the one whose job is
 * ending is among them (pg-boss tells a handler no loop id of its own), and the others would be
 * woken by their own jobs' ends anyway. Idle loops are left to their poll and NOTIFY.
 */
function wakeBusyLoops(boss: PgBoss, loopsId: string): void {
  for (const loop of boss.getWipData()) if (loop.workId === loopsId && loop.count > 0) boss.notifyWorker(loop.id);
}
