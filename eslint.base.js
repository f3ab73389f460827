import js from '@eslint/js';
import prettier from 'eslint-config-prettier';
import tseslint from 'typescript-eslint';

/** What every part of the repository is linted with; eslint.config.js and web/eslint.config.js start from it. */
export default tseslint.config(
  {
    ignores: [
      '**/node_modules/**',
      '**/dist/**',
      // The server-rendered pages' module, built with the web client.
      '**/dist-server/**',
      'data/**',
      'docs/**',
      'services/gateway/public/**',
      '.venv-schemathesis/**',
      '.node24/**',
      '.infra/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  { languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } } },
  {
    rules: {
      // A leading underscore names what a destructuring drops on purpose (`{ at: _at, ...rest }`).
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrorsIgnorePattern: '^_', ignoreRestSiblings: true },
      ],
      // Ports answer with promises. An adapter that answers synchronously (SQLite, the in-memory
      // stores) keeps its methods `async` so that a throw reaches the caller as a rejection, as
      // every other adapter's does, instead of escaping before the caller awaits.
      '@typescript-eslint/require-await': 'off',
      'no-duplicate-imports': ['error', { allowSeparateTypeImports: true }],
    },
  },
  // Formatting is Prettier's: no lint rule may disagree with it.
  prettier,
);
