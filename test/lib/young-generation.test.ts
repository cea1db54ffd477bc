import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const SCRIPT = fileURLToPath(new URL('../helpers/young-generation-process.ts', import.meta.url));
/** The main thread's young generation (MB) after allocating, starting a thread (or a thread that starts one) and allocating again. */
const youngGenerationMb = (mode: 'bound' | 'unbound', chain: 'main' | 'nested') =>
  (
    JSON.parse(execFileSync(process.execPath, ['--import', 'tsx', SCRIPT, mode, chain], { encoding: 'utf8', timeout: 120_000 })) as {
      newSpaceMb: number;
    }
  ).newSpaceMb;

// V8 sets its growth factor back to 2 whenever a thread starts: the bound must hold through both kinds of start.
describe("the main thread's young generation bound (issue 28, the service's RSS)", () => {
  it('holds at 8 MB through a thread the main thread starts', () => {
    expect(youngGenerationMb('bound', 'main')).toBeLessThanOrEqual(8);
    // Unbounded, the same allocation grows it to V8's default for a main thread.
    expect(youngGenerationMb('unbound', 'main')).toBeGreaterThan(16);
  }, 240_000);

  it('holds at 8 MB through a thread that another thread starts (the engine thread, started by the workers thread)', () => {
    expect(youngGenerationMb('bound', 'nested')).toBeLessThanOrEqual(8);
  }, 120_000);
});
