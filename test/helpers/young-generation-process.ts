/**
 * `node --import tsx test/helpers/young-generation-process.ts bound|unbound main|nested`: allocates
 * as a busy HTTP thread does (many short-lived objects, some surviving a while, a turn of the event
 * loop for each thousand), starts a thread (`main`), or a thread that starts one of its own as the
 * workers thread starts the engine thread (`nested`), allocates again, and prints the main thread's
 * young generation (MB) as JSON. The flags it sets are process-wide: a process of its own.
 */
import { getHeapSpaceStatistics } from 'node:v8';
import { boundYoungGeneration } from '../../src/lib/young-generation.js';
import { spawnThread } from '../../src/lib/thread-pool.js';

const [mode, chain] = process.argv.slice(2);
if (mode === 'bound') boundYoungGeneration(8);

const newSpaceMb = () => (getHeapSpaceStatistics().find((s) => s.space_name === 'new_space')?.space_size ?? 0) / 1024 / 1024;
let kept: object[] = [];
async function allocate(objects: number): Promise<void> {
  for (let i = 0; i < objects; i++) {
    const o = { i, text: `row ${i}`, pair: [i, i + 1] };
    if (i % 3 === 0) kept.push(o);
    if (kept.length > 200_000) kept = [];
    if (i % 1_000 === 0) await new Promise((resolve) => setImmediate(resolve));
  }
}

await allocate(3_000_000);
// Plain JavaScript threads (no TypeScript loader, whose own threads would start later): as the built service runs.
const entry = new URL(chain === 'nested' ? './young-generation-thread.ts' : './young-generation-idle-thread.mjs', import.meta.url);
const thread = spawnThread(entry, { execArgv: [] });
await new Promise((resolve) => thread.once('message', resolve));
await allocate(6_000_000);
await thread.terminate();
process.stdout.write(JSON.stringify({ newSpaceMb: newSpaceMb() }));
