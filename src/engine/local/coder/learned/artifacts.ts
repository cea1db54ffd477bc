// Placeholder until scripts/train-coder.ts writes the trained artifacts here.
import type { CoderArtifacts } from './types.js';

export const ARTIFACTS: CoderArtifacts | null = null;
