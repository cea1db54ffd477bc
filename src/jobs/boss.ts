import { PgBoss } from 'pg-boss';
import type { Logger } from '../lib/logger.js';
import type { QueueDefinition } from './define-job.js';

/**
 * pg-boss on the service's own database, with the queues it is given (the composition root's
 * registry) created or brought up to date. LISTEN/NOTIFY wakes job loops the moment a job is sent
 * (FACTS.md: median 6 ms instead of ~1 s of polling).
 */
export async function startBoss(
  connectionString: string,
  logger: Logger,
  queues: QueueDefinition[],
  options: { supervise?: boolean } = {},
): Promise<PgBoss> {
  const boss = new PgBoss({
    connectionString,
    application_name: 'clinigate-jobs',
    useListenNotify: true,
    max: 10,
    supervise: options.supervise ?? true,
    schedule: options.supervise ?? true,
    // Expired and heartbeat-lapsed jobs (a killed process's) are retried within seconds, not the
    // default minute: the run queue's heartbeat is 10 s.
    superviseIntervalSeconds: 5,
    monitorIntervalSeconds: 5,
  });
  boss.on('error', (err) => logger.error('job queue error', { error_name: err.name, error_code: (err as { code?: string }).code }));
  await boss.start();
  for (const queue of queues) {
    await boss.createQueue(queue.name, queue.options);
    // createQueue leaves an existing queue as it was: bring a deployed queue's settings up to date
    // (its policy and partitioning cannot change after creation).
    const { policy: _policy, partition: _partition, ...settings } = queue.options;
    if (Object.keys(settings).length) await boss.updateQueue(queue.name, settings);
  }
  return boss;
}
