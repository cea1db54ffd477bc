import { LocalEngine } from '../../src/engine/local/local-engine.js';
import { CodeTable } from '../../src/terminology/code-table.js';
import { starterRows } from '../../src/terminology/starter-catalog.js';
import { SlowEngine } from '../helpers/slow-engine.js';
import { startRunsTestApp, type RunsTestApp } from './isolated-boss.js';

const table = new CodeTable(starterRows());

/** The app with run workers whose engine takes `delayMs` per call, on its own job schema. */
export async function startSlowApp(delayMs: number): Promise<RunsTestApp & { engine: SlowEngine }> {
  const engine = new SlowEngine(new LocalEngine(() => table), delayMs);
  const app = await startRunsTestApp({ workers: true, deps: { engine } });
  return { ...app, engine };
}
