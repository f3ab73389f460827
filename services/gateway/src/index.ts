/**
 * What other packages' code may use of the gateway: its configuration, for the scripts that read
 * the same environment (rebuild-projections, migrate-personal-data) or check what documents it
 * (.env.example, compose), and the credentials store that environment names (the personal-data keys).
 * The process itself is `./main`.
 */
export { configSchema as gatewayConfigSchema, loadConfigOrExit as loadGatewayConfigOrExit } from './config';
export { openCredentialsStore } from './auth/create-auth';
