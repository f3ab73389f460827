import boundaries from 'eslint-plugin-boundaries';
import reactHooks from 'eslint-plugin-react-hooks';
import { defineConfig } from 'eslint/config';
import globals from 'globals';
import tseslint from 'typescript-eslint';
import path from 'node:path';
import base from '../eslint.base.js';

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
    files: [
      'e2e/**/*.ts',
      'scripts/**/*.{ts,mjs}',
      'vite.config.ts',
      'bundle-budget.ts',
      'precompress.ts',
      'eslint.config.js',
    ],
    languageOptions: { globals: globals.node },
  },
  {
    // Nothing type-checks this file: no tsconfig includes plain JavaScript.
    files: ['eslint.config.js'],
    extends: [tseslint.configs.disableTypeChecked],
  },
  {
    // The client's and its tooling's TypeScript; the lint configs are not part of the app.
    files: ['**/*.{ts,tsx}'],
    plugins: { boundaries },
    settings: {
      // The @/ alias and the workspace packages resolve as TypeScript resolves them.
      'import/resolver': { typescript: { project: path.join(import.meta.dirname, 'tsconfig.json') } },
      // From the repository's root, so the boundaries can name the packages beside web/ too.
      'boundaries/root-path': path.dirname(import.meta.dirname),
      'boundaries/dependency-nodes': ['import', 'dynamic-import', 'export'],
      // The first pattern that matches a file classifies it.
      'boundaries/elements': [
        { type: 'app', pattern: 'web/src/app', partialMatch: false },
        { type: 'feature', pattern: 'web/src/features/*', capture: ['feature'], partialMatch: false },
        { type: 'testing', pattern: 'web/src/testing', partialMatch: false },
        // components, lib, config and whatever shared folder comes next (hooks, types...).
        { type: 'shared', pattern: 'web/src/*', capture: ['folder'], partialMatch: false },
        // What is left in src/: main.tsx.
        { type: 'entry', pattern: 'web/src', partialMatch: false },
        { type: 'e2e', pattern: 'web/e2e', partialMatch: false },
        // What is left in web/: scripts/ and the build's and lint's own config.
        { type: 'tooling', pattern: 'web', partialMatch: false },
        { type: 'contracts', pattern: 'contracts/src', partialMatch: false },
        { type: 'server-package', pattern: 'services/*', partialMatch: false },
        { type: 'test-support', pattern: 'scripts/test-support', partialMatch: false },
      ],
      'boundaries/files': [{ category: 'test', pattern: 'web/src/**/*.test.{ts,tsx}' }],
    },
    rules: {
      // Boundaries passes over a workspace package it cannot resolve (the gateway's has no entry
      // file), so the package names are checked too.
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '^@qrshirt/(?!contracts$)',
              message:
                'The web client imports only @qrshirt/contracts, through its entry, among the workspace packages.',
            },
          ],
        },
      ],
      'boundaries/no-unknown-dependencies': 'error',
      'boundaries/dependencies': [
        'error',
        {
          default: 'disallow',
          policies: [
            { from: { element: { type: 'entry' } }, allow: [{ to: { element: { type: ['app', 'shared'] } } }] },
            // Features meet in the route modules, never in each other.
            { from: { element: { type: 'app' } }, allow: [{ to: { element: { type: ['feature', 'shared'] } } }] },
            { from: { element: { type: 'feature' } }, allow: [{ to: { element: { type: 'shared' } } }] },
            { from: { element: { type: 'shared' } }, allow: [{ to: { element: { type: 'shared' } } }] },
            { from: { element: { type: 'testing' } }, allow: [{ to: { element: { type: ['app', 'shared'] } } }] },
            // A test may set up the app around what it tests, but a feature's test still sees no
            // other feature.
            {
              from: { file: { categories: 'test' } },
              allow: [{ to: { element: { type: ['app', 'shared', 'testing'] } } }],
            },
            // The browser tests hold the built bundle to the build's budget, and start the app and
            // read the mail it sent with the repository's test support (its describe blocks too:
            // stripe-mock's).
            {
              from: { element: { type: 'e2e' } },
              allow: [
                { to: { element: { type: 'tooling' } } },
                {
                  to: { element: { type: 'test-support' } },
                  dependency: { source: ['@qrshirt/test-support', '@qrshirt/test-support/vitest'] },
                },
              ],
            },
            // contracts/ is the only workspace package the web may use, and only through its entry.
            {
              from: { element: { type: ['entry', 'app', 'feature', 'shared', 'testing', 'e2e'] } },
              allow: [{ to: { element: { type: 'contracts' } }, dependency: { source: '@qrshirt/contracts' } }],
            },
          ],
        },
      ],
    },
  },
  {
    // Issue 28: the client names an API operation by its id (lib/api-client's `call`), and the
    // route table gives its address, so a path changed there fails tsc here rather than a browser
    // test. The component tests keep theirs: their fake gateway answers the addresses the client
    // really requests, a check of those addresses that deriving them from the table would void.
    files: ['src/**/*.{ts,tsx}'],
    ignores: ['src/**/*.test.{ts,tsx}', 'src/testing/**'],
    rules: {
      'no-restricted-syntax': [
        'error',
        // `\x2F` is `/`, which a selector's regular expression cannot hold. A module's name (a
        // feature's `./api/` folder) is no address.
        ...[
          ':not(ImportDeclaration, ImportExpression, ExportNamedDeclaration, ExportAllDeclaration) > Literal[value=/\\x2Fapi\\x2F/]',
          'TemplateElement[value.raw=/\\x2Fapi\\x2F/]',
        ].map((selector) => ({
          selector,
          message:
            "Call the API by its operation id (`call`, `callResponse`, `operationUrl`): no '/api/' address here.",
        })),
      ],
    },
  },
  {
    // The browser tests run in Node, not in the client: they may use the repository's test support too.
    files: ['e2e/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '^@qrshirt/(?!contracts$|test-support(/vitest)?$)',
              message:
                'The browser tests import only @qrshirt/contracts and @qrshirt/test-support (and its /vitest) among the workspace packages.',
            },
          ],
        },
      ],
    },
  },
);
