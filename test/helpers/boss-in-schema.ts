import { PgBoss } from 'pg-boss';
import { QUEUES } from '../../src/job-registry.js';

export interface IsolatedBossOptions {
  schema: string;
  /** Run pg-boss's supervisor every second (jobs with a missed heartbeat are retried within seconds). */
  supervise?: boolean;
}

/**
 * pg-boss in a schema of its own, with every queue created: the jobs of one test are seen by its
 * own job loops only (and by its child processes), not by other test files on the shared database.
 * No vitest imports: the slow run process loads this too.
 */
export async function startIsolatedBoss(connectionString: string, options: IsolatedBossOptions): Promise<PgBoss> {
  const boss = new PgBoss({
    connectionString,
    schema: options.schema,
    application_name: 'clinigate-test-jobs',
    useListenNotify: true,
    max: 10,
    supervise: options.supervise ?? false,
    schedule: false,
    superviseIntervalSeconds: 1,
    monitorIntervalSeconds: 1,
  });
  boss.on('error', () => {});
  await boss.start();
  for (const queue of QUEUES) await boss.createQueue(queue.name, queue.options);
  return boss;
}
