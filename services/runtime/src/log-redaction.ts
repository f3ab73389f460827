/**
 * pino's `redact` option for every process: whoever logs an object holding a credential (a
 * request body, an auth session, headers) gets `[redacted]` in the line instead of the secret.
 * pino paths match one level of nesting per `*`.
 */
export const logRedaction = {
  paths: [
    'password',
    'newPassword',
    'accessToken',
    'refreshToken',
    'token',
    'authorization',
    'headers.authorization',
    'headers.cookie',
    '*.password',
    '*.newPassword',
    '*.accessToken',
    '*.refreshToken',
    '*.token',
    '*.authorization',
    '*.headers.authorization',
    '*.headers.cookie',
  ],
  censor: '[redacted]',
};
