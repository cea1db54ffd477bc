import { parentPort, workerData } from 'node:worker_threads';

/**
 * A stand-in for src/job-runner-thread-entry.ts that follows its protocol, told by
 * `workerData.config.behaviour` what to do: `crash-at-start`, `crash-after-ready`, or `normal`
 * (reports one job, ends on `stop`).
 */
const port = parentPort!;
const { behaviour } = (workerData as { config: { behaviour: string } }).config;
if (behaviour === 'crash-at-start') throw new Error('the database is not reachable');
port.postMessage({ type: 'job', queue: 'inbound-event', outcome: 'completed', seconds: 0.25 });
port.postMessage({ type: 'ready' });
if (behaviour === 'crash-after-ready') setTimeout(() => process.exit(3), 50);
port.on('message', (message: { type: string }) => {
  if (message.type !== 'stop') return;
  port.close();
});
