import type { Command } from 'commander';
import { isUuid } from '../../http/validate.js';
import { withDatabase } from '../database.js';
import { CliError, cliConfig } from '../cli-errors.js';

interface ReplayOptions {
  dead?: boolean;
  endpoint?: string;
}

/**
 * Each dead delivery goes through the same replay as POST /api/v1/webhook-deliveries/{id}/replay:
 * same webhook-id, fresh retry schedule; the service's workers send it.
 */
async function replayDead(opts: ReplayOptions): Promise<void> {
  if (!opts.dead) throw new CliError('say which deliveries to replay: --dead (every dead delivery, or those of --endpoint ID)', 2);
  if (opts.endpoint !== undefined && !isUuid(opts.endpoint))
    throw new CliError(`--endpoint "${opts.endpoint}" is not a webhook endpoint id (a UUID)`, 2);
  const config = cliConfig();
  const [{ startBoss }, { QUEUES }, { createLogger }, { reopenForReplay }, { listDeadDeliveryIds }, { findEndpoint }] = await Promise.all([
    import('../../jobs/boss.js'),
    import('../../job-registry.js'),
    import('../../lib/logger.js'),
    import('../../modules/outbound-webhooks/deliveries/reopen-for-replay.js'),
    import('../../modules/outbound-webhooks/deliveries/webhook-deliveries.repo.js'),
    import('../../modules/outbound-webhooks/endpoints/webhook-endpoints.repo.js'),
  ]);
  await withDatabase(config, async ({ pool, url }) => {
    if (opts.endpoint && !(await findEndpoint(pool, opts.endpoint))) throw new CliError(`webhook endpoint ${opts.endpoint} not found`);
    const ids = await listDeadDeliveryIds(pool, opts.endpoint);
    if (ids.length === 0) {
      process.stdout.write(`No dead deliveries${opts.endpoint ? ` for endpoint ${opts.endpoint}` : ''}: nothing queued.\n`);
      return;
    }
    const boss = await startBoss(url, createLogger('error', { silent: true }), QUEUES, { supervise: false });
    let queued = 0;
    const skipped = new Map<string, string>();
    try {
      for (const id of ids) {
        const d = await reopenForReplay({ pool, boss }, id);
        if (d?.endpoint_status === 'active' && !d.redacted) queued++;
        else if (d) skipped.set(d.endpoint_id, d.redacted ? 'redacted' : d.endpoint_status);
      }
    } finally {
      await boss.stop({ graceful: false, timeout: 5_000 }).catch(() => {});
    }
    process.stdout.write(
      `Queued ${queued} dead deliver${queued === 1 ? 'y' : 'ies'} for replay${opts.endpoint ? ` (endpoint ${opts.endpoint})` : ''}.\n`,
    );
    const skippedCount = ids.length - queued;
    if (skippedCount) {
      const why = [...skipped].map(([endpoint, status]) => `${endpoint} is ${status}`).join(', ');
      process.stdout.write(`Skipped ${skippedCount}: their endpoint is not active (${why}).\n`);
    }
  });
}

export function registerWebhooks(program: Command): void {
  const webhooks = program.command('webhooks').description('outbound webhook deliveries: webhooks replay --dead [--endpoint <id>]');
  webhooks
    .command('replay')
    .description('send dead deliveries again, as POST /api/v1/webhook-deliveries/{id}/replay does (same webhook-id, fresh retry schedule)')
    .option('--dead', 'replay every delivery whose retries are exhausted')
    .option('--endpoint <id>', 'only the deliveries of this webhook endpoint')
    .addHelpText('after', "\nThe running service's workers make the requests; this command only queues them.")
    .action(replayDead);
}
