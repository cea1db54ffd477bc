import { parentPort } from 'node:worker_threads';
import { spawnThread } from '../../src/lib/thread-pool.js';

// Starts a thread of its own, as the workers thread starts an engine thread, and says so once it runs.
const child = spawnThread(new URL('./young-generation-idle-thread.mjs', import.meta.url), { execArgv: [] });
child.once('message', () => parentPort!.postMessage('ready'));
