import boundaries from 'eslint-plugin-boundaries';
import globals from 'globals';
import tseslint from 'typescript-eslint';
import base from './eslint.base.js';

/*
 * The server side's lint: the shared rules, and the layers of docs/architecture.md as import
 * boundaries. web/ has its own eslint.config.js; `npm run lint` runs both.
 */

/** Database, broker, mail and metrics drivers: the domain never sees one. */
const DRIVERS = [
  'better-sqlite3',
  '@kurrent/kurrentdb-client',
  'kafkajs',
  'ioredis',
  'prom-client',
  'nodemailer',
  'express',
  'pino',
];

/** May import these layers' packages, by name. The domain is core's package and the projections. */
const byName = (...types) => [
  {
    to: { element: { type: types.flatMap((type) => (type === 'domain' ? ['domain', 'core'] : [type])) } },
    dependency: { source: ['@qrshirt/*', '@qrshirt/*/testing', '@qrshirt/*/vitest'] },
  },
];

/**
 * Core's feature folders (services/core/src/<feature>), each drawn below the ones it may use:
 * besides itself, a feature imports only the kit, the ports and contracts, and these features.
 * Where a feature needs one drawn above it, that one hands it a small port (a function or a type
 * the lower one declares), as fulfilment does for the waitlist's removal links and for claims.
 */
const CORE_FEATURES = {
  'admin-audit': [],
  charities: [],
  shirts: [],
  users: [],
  donations: [],
  'personal-data': [],
  fundraisers: ['charities', 'shirts', 'donations'],
  catalogue: ['shirts', 'charities'],
  analytics: ['donations', 'fundraisers', 'catalogue'],
  waitlist: ['charities', 'shirts', 'personal-data'],
  fulfilment: ['charities', 'shirts', 'fundraisers', 'waitlist'],
  ingestion: ['fundraisers'],
  'owner-mail': ['fundraisers', 'users'],
  'lookup-keys': ['personal-data', 'users', 'waitlist'],
  seed: ['charities', 'shirts'],
};

/** The gateway's feature folders (services/gateway/src/<feature>): its handlers beside their modules. */
const GATEWAY_FEATURES = ['admin', 'auth', 'catalogue', 'donations', 'fundraisers', 'waitlist'];

const toCore = (type, captured) => ({ to: { element: { type, ...(captured && { captured }) } } });

/** Inside core: the package's entry composes its folders; the folders keep to their own drawing. */
const coreFolders = [
  {
    from: { element: { type: 'core' } },
    allow: [toCore(['core', 'core-kit', 'core-ports', 'core-feature'])],
  },
  {
    from: { element: { type: ['core-kit', 'core-ports'] } },
    allow: [toCore(['core-kit', 'core-ports']), ...byName('contracts')],
  },
  ...Object.entries(CORE_FEATURES).map(([feature, uses]) => ({
    from: { element: { type: 'core-feature', captured: { feature } } },
    allow: [
      toCore('core-feature', { feature: [feature, ...uses] }),
      toCore(['core-kit', 'core-ports']),
      ...byName('contracts'),
    ],
  })),
];

/** What each layer may import; contracts imports nothing of ours. */
const layers = [
  { from: { element: { type: ['domain', 'core'] } }, allow: byName('contracts', 'domain') },
  ...coreFolders,
  { from: { element: { type: 'adapter' } }, allow: byName('contracts', 'domain') },
  { from: { element: { type: 'runtime' } }, allow: byName('contracts', 'domain', 'adapter') },
  // Only processes compose: each is a composition root over the layers below it.
  { from: { element: { type: 'process' } }, allow: byName('contracts', 'domain', 'adapter', 'runtime') },
  { from: { element: { type: 'test-support' } }, allow: byName('contracts') },
  {
    from: { element: { type: 'scripts' } },
    allow: byName('contracts', 'domain', 'adapter', 'runtime', 'process', 'test-support'),
  },
];

/**
 * A package's tests may also use the test support (local servers, launchers, the HTTP client); its
 * code may not. The domain's tests also run it against the real adapters (the projections against
 * SQLite and Redis), which its code reaches only through ports.
 */
const layersInTests = layers.map((policy) => ({
  ...policy,
  allow: [
    ...policy.allow,
    ...byName('test-support'),
    ...([policy.from.element.type].flat().includes('domain') ? byName('adapter') : []),
  ],
}));

export default tseslint.config(
  ...base,
  { ignores: ['web/**'] },
  { languageOptions: { globals: globals.node } },
  {
    // Nothing type-checks the lint configs: no tsconfig includes plain JavaScript.
    files: ['*.js'],
    extends: [tseslint.configs.disableTypeChecked],
  },
  {
    files: ['**/*.ts'],
    plugins: { boundaries },
    settings: {
      // Workspace packages resolve through their package.json exports, as TypeScript resolves them.
      'import/resolver': { typescript: { project: `${import.meta.dirname}/tsconfig.json` } },
      'boundaries/root-path': import.meta.dirname,
      'boundaries/dependency-nodes': ['import', 'dynamic-import', 'export'],
      'boundaries/elements': [
        { type: 'contracts', pattern: 'contracts', partialMatch: false },
        { type: 'core-kit', pattern: 'services/core/src/kit', partialMatch: false },
        { type: 'core-ports', pattern: 'services/core/src/ports', partialMatch: false },
        { type: 'core-feature', pattern: 'services/core/src/*', capture: ['feature'], partialMatch: false },
        { type: 'core', pattern: 'services/core', partialMatch: false },
        { type: 'domain', pattern: 'projections', partialMatch: false },
        { type: 'adapter', pattern: 'services/adapters/*', capture: ['package'], partialMatch: false },
        { type: 'runtime', pattern: 'services/runtime', partialMatch: false },
        { type: 'process', pattern: 'services/*', capture: ['package'], partialMatch: false },
        { type: 'test-support', pattern: 'scripts/test-support', partialMatch: false },
        { type: 'scripts', pattern: 'scripts', partialMatch: false },
      ],
    },
    rules: {
      // Another package only through its name, so through its package.json exports.
      'boundaries/dependencies': ['error', { default: 'disallow', policies: layers }],
    },
  },
  {
    files: ['**/test/**/*.ts'],
    rules: { 'boundaries/dependencies': ['error', { default: 'disallow', policies: layersInTests }] },
  },
  {
    files: ['services/core/**/*.ts', 'projections/**/*.ts', 'contracts/**/*.ts'],
    ignores: ['**/test/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        { paths: DRIVERS.map((name) => ({ name, message: 'The domain uses ports; drivers belong to adapters.' })) },
      ],
    },
  },
  {
    // Inside the gateway, http/ (the route table, pages, limits) and mail/ are drawn below the
    // feature folders that use them: sign-in takes mail's ports, never the reverse.
    files: ['services/gateway/src/http/**/*.ts', 'services/gateway/src/mail/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: [...GATEWAY_FEATURES.map((folder) => `../${folder}/*`), '../route-deps', '../app', '../embedded'],
              message: 'http/ and mail/ are used by the feature folders, not the other way round.',
            },
          ],
        },
      ],
    },
  },
  {
    // Tests read JSON answers field by field and assert on them: a wrong field fails its
    // assertion, which is what these rules would check, at the price of a type on every answer.
    files: ['**/test/**/*.ts', 'scripts/test/**/*.ts'],
    rules: {
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
    },
  },
);
