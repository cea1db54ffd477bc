import type { PgBoss } from 'pg-boss';
import type { Queryable } from '../../db/pool.js';
import { CODIFY_QUEUE } from '../../jobs/queues.js';

/** Job data: ids only. The text stays in codify_runs.input_text until the run ends. */
export interface CodifyJobData {
  codify_run_id: string;
  request_id?: string;
}

/** Sends the job inside the caller's transaction, so the run and its job commit together. */
export async function enqueueCodification(boss: PgBoss, tx: Queryable, data: CodifyJobData): Promise<void> {
  await boss.send(CODIFY_QUEUE, { ...data }, { db: { executeSql: (text, values) => tx.query(text, values) } });
}
