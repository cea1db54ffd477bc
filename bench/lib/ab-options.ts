import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

/**
 * The options the side-by-side benches (coder-ab.ts, engine-thread-ab.ts) share, for
 * `parseArgs({ options: { ...AB_OPTIONS, ...their own } })`: the source trees, runs per tree and
 * level, the levels, and whether to load each tree's compiled build.
 */
export const AB_OPTIONS = {
  roots: { type: 'string', default: '.' },
  runs: { type: 'string', default: '20' },
  models: { type: 'string', default: 'fast,balanced,high-quality' },
  dist: { type: 'boolean', default: false },
} as const;

export interface AbOptions {
  /** absolute paths of the trees, in the order given (the ratio is last over first) */
  roots: string[];
  runs: number;
  models: string[];
  dist: boolean;
}

/** The shared options as parsed: lists split, paths resolved, runs a positive whole number. */
export function readAbOptions(values: { roots: string; runs: string; models: string; dist: boolean }): AbOptions {
  const runs = Number(values.runs);
  if (!Number.isInteger(runs) || runs < 1) throw new Error(`--runs must be a positive whole number, not ${values.runs}`);
  return { roots: values.roots.split(',').map((r) => resolve(r)), runs, models: values.models.split(','), dist: values.dist };
}

/** The URL of a module of a tree ("engine/local/coder/index"): its source, or its build with --dist. */
export function treeModule(root: string, dist: boolean, path: string): string {
  return pathToFileURL(join(root, dist ? `dist/${path}.js` : `src/${path}.ts`)).href;
}
