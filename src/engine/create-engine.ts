import type { Config } from '../config.js';
import { resolveTable, type TableInForce } from '../terminology/shipped-release.js';
import type { Logger } from '../lib/logger.js';
import type { ClinicalEngine } from './engine.js';
import { FallbackEngine } from './fallback-engine.js';
import { IsolatedEngine } from './isolated/isolated-engine.js';

export interface EngineDeps {
  /** The ICD-10-CM table in force: imported codes, else 'shipped' (the release the product ships). */
  codeTable: () => TableInForce;
  /** For PHI-free notices (retries, fallbacks). */
  logger: Logger;
}

/**
 * The engine named by ENGINE. The OpenAI engine is loaded only when it is named: its SDK and the
 * local coder it checks codes with would otherwise load in every thread that opens a runtime (the
 * HTTP thread and the workers thread of ROLE=all), where the local engine codes in its own threads
 * (issue 28, the service's RSS).
 */
export async function createEngine(config: Config, deps: EngineDeps): Promise<ClinicalEngine> {
  switch (config.ENGINE) {
    case 'local':
      // In threads: no input can block the HTTP event loop (isolated-engine.ts).
      return new IsolatedEngine(isolatedOptions(config, deps));
    case 'openai': {
      const { OpenAIEngine } = await import('./openai/openai-engine.js');
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
