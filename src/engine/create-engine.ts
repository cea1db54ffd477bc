import type { Config } from '../config.js';
import type { CodeTable } from '../terminology/code-table.js';
import type { ClinicalEngine } from './engine.js';
import { LocalEngine } from './local/local-engine.js';

export interface EngineDeps {
  /** The ICD-10-CM table in force: imported codes, else the starter catalog. */
  codeTable: () => CodeTable;
}

/** The engine named by ENGINE. */
export function createEngine(config: Config, deps: EngineDeps): ClinicalEngine {
  switch (config.ENGINE) {
    case 'local':
      return new LocalEngine(deps.codeTable);
    case 'openai':
      throw new Error('ENGINE=openai is not available yet');
  }
}
