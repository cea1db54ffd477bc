import { isolatedDatabase, type IsolatedDatabase } from '../../helpers/isolated-database.js';

export type PrivateDatabase = IsolatedDatabase;

/**
 * Codify tests need a database of their own: their jobs go through the shared `codify` queue,
 * and the import tests replace the code table, which other files must not see.
 */
export const privateDatabase = (label: string) => isolatedDatabase(`test_${label}`);
