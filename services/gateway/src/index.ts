/**
 * What other packages' code may use of the gateway: its configuration, for the scripts that read
 * the same environment (rebuild-projections, migrate-personal-data, migrate-lookup-keys) or check
 * what documents it (.env.example, compose), the credentials store that environment names (the
 * personal-data keys) and its lookup keys. The process itself is `./main`.
 */
export { configSchema as gatewayConfigSchema, loadConfigOrExit as loadGatewayConfigOrExit } from './config';
export { openCredentialsStore } from './auth/create-auth';
export { lookupKeysOf } from './auth/lookup-keys';
export { createStripeBooks } from './donations/stripe-books';
export { createStripeClient } from './donations/stripe-client';
