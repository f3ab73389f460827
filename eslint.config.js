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

/** Node's built-ins that reach outside the process: files, the network, other processes and threads. */
const IO_BUILTINS = [
  'fs',
  'fs/promises',
  'net',
  'tls',
  'http',
  'https',
  'http2',
  'dgram',
  'dns',
  'dns/promises',
  'child_process',
  'cluster',
  'worker_threads',
  'readline',
];

/** The packages that hold the drivers (adapters) or open them (runtime). */
const DRIVER_PACKAGES = [
  '@qrshirt/sqlite',
  '@qrshirt/eventstoredb',
  '@qrshirt/kafka',
  '@qrshirt/redis',
  '@qrshirt/runtime',
];

const noDriver = DRIVERS.map((name) => ({ name, message: 'The domain uses ports; drivers belong to adapters.' }));

/** May import these layers' packages, by name. The domain is core's package and the projections. */
const byName = (...types) => [
  {
    to: { element: { type: types.flatMap((type) => (type === 'domain' ? ['domain', 'core'] : [type])) } },
    dependency: { source: ['@qrshirt/*', '@qrshirt/*/testing', '@qrshirt/*/vitest'] },
  },
];

/** The gateway's feature folders (services/gateway/src/<feature>): its handlers beside their modules. */
const GATEWAY_FEATURES = ['admin', 'auth', 'catalogue', 'donations', 'fundraisers', 'waitlist'];

const toCore = (type, captured) => ({ to: { element: { type, ...(captured && { captured }) } } });

/**
 * Inside core: the package's entry composes its folders. A feature folder
 * (services/core/src/<feature>) imports only itself, the kit, the ports and contracts; where two
 * features must talk, one takes a small port (in ports/, or its own dependency type) that the
 * composition root fills with the other's function.
 */
const coreFolders = [
  {
    from: { element: { type: 'core' } },
    allow: [toCore(['core', 'core-kit', 'core-ports', 'core-feature'])],
  },
  {
    from: { element: { type: ['core-kit', 'core-ports'] } },
    allow: [toCore(['core-kit', 'core-ports']), ...byName('contracts')],
  },
  {
    from: { element: { type: 'core-feature' } },
    allow: [
      toCore('core-feature', { feature: '{{ from.captured.feature }}' }),
      toCore(['core-kit', 'core-ports']),
      ...byName('contracts'),
    ],
  },
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
        { type: 'domain', pattern: 'services/projections', partialMatch: false },
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
    files: ['services/core/**/*.ts', 'services/projections/**/*.ts', 'contracts/**/*.ts'],
    ignores: ['**/test/**'],
    rules: {
      'no-restricted-imports': ['error', { paths: noDriver }],
    },
  },
  {
    // A decision and a projection are functions of events: no driver, nor Node's I/O, even where
    // a port would allow it (this block replaces the one above for these files, so it repeats it).
    files: ['services/core/src/**/*-decider.ts', 'services/core/src/**/*-projector.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [
            ...noDriver,
            ...[...DRIVER_PACKAGES, ...IO_BUILTINS.flatMap((name) => [name, `node:${name}`])].map((name) => ({
              name,
              message: 'A decider or projector is a function of events: it does no I/O.',
            })),
          ],
        },
      ],
    },
  },
  {
    // Inside the gateway, http/ (the route table, pages, limits), mail/ and qr/ (QR codes and
    // sheets) are drawn below the feature folders that use them: sign-in takes mail's ports,
    // never the reverse.
    files: ['services/gateway/src/{http,mail,qr}/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: [
                ...GATEWAY_FEATURES.map((folder) => `../${folder}/*`),
                '../route-deps',
                '../app',
                '../embedded',
                '../root/*',
              ],
              message: 'http/, mail/ and qr/ are used by the feature folders, not the other way round.',
            },
          ],
        },
      ],
    },
  },
  // The gateway's feature folders are walled like core's: where two must share, the code moves
  // below them (http/, mail/, the runtime) or one takes a small dependency type the root fills.
  ...GATEWAY_FEATURES.map((feature) => ({
    files: [`services/gateway/src/${feature}/**/*.ts`],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: GATEWAY_FEATURES.filter((other) => other !== feature).map((other) => `../${other}/*`),
              message: "A gateway feature folder does not import another's.",
            },
          ],
        },
      ],
    },
  })),
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
