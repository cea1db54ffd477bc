import { createRequire } from 'node:module';

/**
 * natural's Porter stemmer, loaded by its own path: natural's index also loads storage
 * back-ends that call dotenv (reading a stray .env into process.env and printing to stdout).
 */
export const porterStemmer = createRequire(import.meta.url)('natural/lib/natural/stemmers/porter_stemmer.js') as {
  stem(token: string): string;
};
