import type { Config } from '../config.js';
import { resolveTable, type TableInForce } from '../terminology/shipped-release.js';
import type { Logger } from '../lib/logger.js';
import type { ClinicalEngine } from './engine.js';
import { FallbackEngine } from './fallback-engine.js';
import { IsolatedEngine } from './isolated/isolated-engine.js';
import { OpenAIEngine } from './openai/openai-engine.js';

export interface EngineDeps {
  /** The ICD-10-CM table in force: imported codes, else 'shipped' (the release the product ships). */
  codeTable: () => TableInForce;
  /** For PHI-free notices (retries, fallbacks). */
  logger: Logger;
}

/** The engine named by ENGINE. */
export function createEngine(config: Config, deps: EngineDeps): ClinicalEngine {
  switch (config.ENGINE) {
    case 'local':
      // In threads: no input can block the HTTP event loop (isolated-engine.ts).
      return new IsolatedEngine(isolatedOptions(config, deps));
    case 'openai': {
      const engine = new OpenAIEngine(config, { codeTable: () => resolveTable(deps.codeTable()), logger: deps.logger });
      return config.ENGINE_FALLBACK === 'local'
        ? new FallbackEngine(engine, new IsolatedEngine(isolatedOptions(config, deps)), deps.logger)
        : engine;
    }
  }
}

const isolatedOptions = (config: Config, deps: EngineDeps) => ({
  codeTable: deps.codeTable,
  logger: deps.logger,
  maxQueuePerGroup: config.ENGINE_QUEUE_PER_GROUP,
  size: config.ENGINE_THREADS,
});
