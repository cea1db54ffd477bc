import { z } from 'zod';
import type { AppDeps } from '../app-deps.js';
import { runWithContext } from '../lib/request-context.js';
import { runCodification } from '../modules/codify/run-codification.js';
import { CODIFY_QUEUE } from './queues.js';

const jobData = z.object({ codify_run_id: z.uuid(), request_id: z.string().optional() });

/** Worker of the codify queue: a few jobs at once per process, woken by NOTIFY. */
export async function startCodifyWorker(deps: AppDeps): Promise<string> {
  return deps.boss.work(CODIFY_QUEUE, { batchSize: 1, localConcurrency: 2, pollingIntervalSeconds: 0.5, notifyPollingIntervalSeconds: 1 }, async ([job]) => {
    const data = jobData.safeParse(job.data);
    if (!data.success) {
      deps.logger.error('codify job with malformed data', { job_id: job.id });
      return;
    }
    const { codify_run_id, request_id } = data.data;
    await runWithContext({ requestId: request_id ?? job.id }, () => runCodification(deps, codify_run_id));
  });
}
