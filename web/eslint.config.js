import reactHooks from 'eslint-plugin-react-hooks';
import { defineConfig } from 'eslint/config';
import globals from 'globals';
import tseslint from 'typescript-eslint';
import base from '../eslint.config.js';

/**
 * The web client's lint config. ESLint lints each file with the eslint.config.js nearest to it, so
 * web/'s files get this one alone: it starts from the root's, and its globs are relative to web/.
 */
export default defineConfig(
  ...base,
  { ignores: ['public/**'] },
  {
    files: ['src/**/*.{ts,tsx}'],
    languageOptions: { globals: globals.browser },
    extends: [reactHooks.configs.flat.recommended],
  },
  {
    files: ['e2e/**/*.ts', 'scripts/**/*.ts', 'vite.config.ts', 'bundle-budget.ts', 'eslint.config.js'],
    languageOptions: { globals: globals.node },
  },
  {
    // Nothing type-checks this file: no tsconfig includes plain JavaScript.
    files: ['eslint.config.js'],
    extends: [tseslint.configs.disableTypeChecked],
  },
);
