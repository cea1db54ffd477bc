// typescript-eslint's recommended rules, with the few choices this code base has made.
import { globals, js, prettierConfig, tseslint } from './tools/lint/index.js';

export default tseslint.config(
  { ignores: ['dist/', '**/node_modules/', '.data/', 'coverage/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: globals.node },
    rules: {
      // A leading underscore marks a value left out on purpose (a destructured field dropped, an unused parameter kept for a signature).
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none', ignoreRestSiblings: true },
      ],
    },
  },
  // Tests read answers' JSON bodies as loosely as a client would.
  { files: ['test/**/*.ts', 'bench/**/*.ts', 'scripts/**/*.ts'], rules: { '@typescript-eslint/no-explicit-any': 'off' } },
  // The operator console's script runs in the browser.
  { files: ['console/**/*.js'], languageOptions: { globals: globals.browser } },
  prettierConfig,
);
