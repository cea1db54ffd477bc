// The lint tools, re-exported for the root's eslint.config.js: they resolve here, against this
// folder's TypeScript 6 (see package.json's description).
export { default as js } from '@eslint/js';
export { default as prettierConfig } from 'eslint-config-prettier';
export { default as tseslint } from 'typescript-eslint';
export { default as globals } from 'globals';
