import { parentPort } from 'node:worker_threads';

// A thread that only runs (young-generation-process.ts): its start is what resets V8's growth factor.
parentPort.postMessage('ready');
setInterval(() => {}, 1_000);
