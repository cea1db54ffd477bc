import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { Queryable } from '../db/pool.js';
import { collectStateGauges } from './state-gauges.js';

const LATENCY_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300, 600];

/**
 * The process's Prometheus metrics: HTTP by route and status, jobs by queue and outcome, and
 * gauges read from PostgreSQL at scrape time (queue depth, runs, codifications, deliveries,
 * calls, inbound events by state), so every process of a scaled-out deployment reports the same
 * shared state. Labels are route patterns, queue names and states: never ids or PHI.
 */
export class Metrics {
  readonly registry = new Registry();
  readonly httpDuration = new Histogram({
    name: 'clinigate_http_request_duration_seconds',
    help: 'HTTP request duration by method, route pattern and status',
    labelNames: ['method', 'route', 'status'] as const,
    buckets: LATENCY_BUCKETS,
    registers: [this.registry],
  });
  readonly jobs = new Counter({
    name: 'clinigate_jobs_total',
    help: 'Jobs handled by this process, by queue and outcome',
    labelNames: ['queue', 'outcome'] as const,
    registers: [this.registry],
  });
  readonly jobDuration = new Histogram({
    name: 'clinigate_job_duration_seconds',
    help: 'Job handling time by queue and outcome (run-execute is run latency, codify is codify latency)',
    labelNames: ['queue', 'outcome'] as const,
    buckets: LATENCY_BUCKETS,
    registers: [this.registry],
  });
  readonly hl7Ack = new Histogram({
    name: 'clinigate_hl7_ack_duration_seconds',
    help: 'HL7 v2 messages over MLLP, from whole frame read to ACK written, by message type (other: unsupported or unreadable) and ACK code',
    labelNames: ['type', 'ack'] as const,
    buckets: LATENCY_BUCKETS,
    registers: [this.registry],
  });
  readonly state: Gauge<'table' | 'state'>;
  readonly queueDepth: Gauge<'queue'>;
  readonly oldestWaiting: Gauge<'queue'>;
  readonly endpointHealth: Gauge<'endpoint_id'>;

  constructor(db: Queryable) {
    collectDefaultMetrics({ register: this.registry, prefix: 'clinigate_' });
    const gauges = {
      state: new Gauge({
        name: 'clinigate_resources',
        help: 'Rows by table and state (runs, codify_runs, webhook_deliveries, calls, inbound_events)',
        labelNames: ['table', 'state'] as const,
        registers: [this.registry],
      }),
      queueDepth: new Gauge({
        name: 'clinigate_queue_depth',
        help: 'Jobs waiting (created or retry, due now) by queue',
        labelNames: ['queue'] as const,
        registers: [this.registry],
      }),
      oldestWaiting: new Gauge({
        name: 'clinigate_queue_oldest_waiting_seconds',
        help: 'Age of the oldest waiting job by queue',
        labelNames: ['queue'] as const,
        registers: [this.registry],
      }),
      endpointHealth: new Gauge({
        name: 'clinigate_endpoint_health',
        help: 'Health of each outbound endpoint: 1 ok, 0 failing (its last WEBHOOK_FAILING_AFTER attempts failed), -1 disabled',
        labelNames: ['endpoint_id'] as const,
        registers: [this.registry],
      }),
    };
    this.state = gauges.state;
    this.queueDepth = gauges.queueDepth;
    this.oldestWaiting = gauges.oldestWaiting;
    this.endpointHealth = gauges.endpointHealth;
    this.refresh = () => collectStateGauges(db, gauges);
  }

  /** Reads the shared state gauges from the database; called before each scrape. */
  readonly refresh: () => Promise<void>;

  /** Times a job handler and counts its outcome. */
  timeJob<T>(queue: string, fn: () => Promise<T>): Promise<T> {
    return timeJob(queue, fn, (outcome, seconds) => this.recordJob(queue, outcome, seconds));
  }

  /** One handled job: its queue, outcome and time (also those the job runner thread reports). */
  recordJob(queue: string, outcome: JobOutcome, seconds: number): void {
    this.jobDuration.observe({ queue, outcome }, seconds);
    this.jobs.inc({ queue, outcome });
  }
}

export type JobOutcome = 'completed' | 'failed';

/** What times the job runner's jobs: the process's Metrics, or a thread's messages to them (job-runner-thread.ts). */
export type JobTimer = Pick<Metrics, 'timeJob'>;

/** Runs a job handler and reports its outcome and duration in seconds to `record`. */
export async function timeJob<T>(queue: string, fn: () => Promise<T>, record: (outcome: JobOutcome, seconds: number) => void): Promise<T> {
  const started = performance.now();
  try {
    const result = await fn();
    record('completed', (performance.now() - started) / 1000);
    return result;
  } catch (err) {
    record('failed', (performance.now() - started) / 1000);
    throw err;
  }
}
