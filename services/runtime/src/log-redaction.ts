/**
 * Fields whose value is a secret or a person's own data, wherever a log call hands them in: a
 * request body, an auth session, headers, an outbox message. Names have no shape a pattern could
 * find, so they are caught here by the fields that carry them; `name` covers shirts' names too,
 * which a log can do without. pino paths match one level of nesting per `*`.
 */
const redactedFields = [
  // Secrets.
  'password',
  'newPassword',
  'accessToken',
  'refreshToken',
  'token',
  'authorization',
  // Personal data.
  'email',
  'emails',
  'displayName',
  'name',
  'phoneNumber',
  'phone',
  'to',
  // A mail's contents greet the person by name.
  'text',
  'html',
  // Whatever a client sent, held whole by body-parser's errors (`err.body`) and by request objects.
  'body',
];

/**
 * pino's `redact` option for every process: whoever logs an object holding a credential or
 * personal data gets `[redacted]` in the line instead of the value.
 */
export const logRedaction = {
  paths: [
    ...redactedFields,
    ...redactedFields.map((field) => `*.${field}`),
    'headers.authorization',
    'headers.cookie',
    '*.headers.authorization',
    '*.headers.cookie',
  ],
  censor: '[redacted]',
};

/**
 * An address anywhere in text, plain or percent-encoded (`%40`, as in a query string). The local
 * part and labels are bounded by RFC 5321's lengths so a long run of letters costs linear time,
 * the last label starts with a letter (`pino@10.4.0` is a version, not an address), and a match
 * never starts inside a JSON escape (`\n`, `\u001b`, but after `\\` it may), which replacing would
 * leave broken.
 */
const EMAIL =
  /(?<!(?:^|[^\\])(?:\\\\)*\\(?:u[0-9A-Fa-f]{0,3})?)[\p{L}\p{N}._+-]{1,64}(?:@|%40)[\p{L}\p{N}-]{1,63}(?:\.[\p{L}\p{N}-]{1,63}){0,8}\.\p{L}[\p{L}\p{N}-]{0,62}/gu;

/**
 * Masks every email address in a serialized log line, whatever field or message echoes it (an
 * error message quoting input, a mail server's refusal, a query string). Lines without `@` or
 * `%40` (nearly all) cost two scans for a character and no regular expression.
 */
export function maskEmails(line: string): string {
  if (!line.includes('@') && !line.includes('%40')) return line;
  return line.replace(EMAIL, '[email]');
}
