import { PerformanceObserver } from 'node:perf_hooks';
import { getHeapSpaceStatistics, setFlagsFromString } from 'node:v8';

/**
 * Set in the environment by the main thread that bounds its young generation, and so copied into
 * every thread started after (a Worker's environment is a copy of its parent's): any thread that
 * starts another must hold the bound again (`afterThreadStart`). Not configuration: config.ts never reads it.
 */
const BOUND_MARK = 'CLINIGATE_YOUNG_GENERATION_BOUND';
const MB = 1024 * 1024;
let limit: number | undefined;
let held = false;

const newSpaceSize = () => getHeapSpaceStatistics().find((s) => s.space_name === 'new_space')?.space_size ?? 0;
const holdGrowth = () => setFlagsFromString('--semi-space-growth-factor=1');

/**
 * Bounds the main thread's young generation near `maxMb` (both semi-spaces) rather than V8's
 * default for a main thread (32 MB, which the HTTP thread of ROLE=all fills under ingest load):
 * issue 28, the service's RSS. No command-line flag can be relied on (`node dist/main.js`), and
 * `--max-semi-space-size` set at run time is read only by isolates made later, never by this one.
 * So the space grows as V8 would until it reaches `maxMb`, then a growth factor of 1 holds it, a
 * flag V8 reads whenever it would grow the space. V8 sets that factor back to 2 whenever it makes
 * an isolate (a Worker's start, in any thread), so `afterThreadStart` holds it again. The factor
 * is process-wide: worker threads start with semi-spaces of 4 MB (`--min-semi-space-size`, read
 * as an isolate is made), the most an 8 MB young generation has, rather than held at 1 MB.
 * Call first, before the service's modules load.
 */
export function boundYoungGeneration(maxMb: number): void {
  limit = maxMb * MB;
  process.env[BOUND_MARK] = '1';
  setFlagsFromString('--min-semi-space-size=4');
  if (holdAtLimit()) return;
  const observer = new PerformanceObserver(() => {
    if (holdAtLimit()) observer.disconnect();
  });
  observer.observe({ entryTypes: ['gc'] });
}

function holdAtLimit(): boolean {
  if (limit === undefined || newSpaceSize() < limit) return false;
  held = true;
  holdGrowth();
  return true;
}

/** A Worker's isolate set V8's growth factor back to 2: the main thread's bound holds again (from whichever thread started it). */
export function afterThreadStart(): void {
  if (held || (limit === undefined && process.env[BOUND_MARK] === '1')) holdGrowth();
}
