/**
 * Patterns the OpenAPI document gives for text the server checks in code (where a failure
 * answers with its own message and auth `code`): the document must still say what is accepted.
 * Written in regex syntax that ECMAScript, Python and Rust read alike (`\s` and `\d` differ).
 */

/** What String.prototype.trim, and so zod's `.trim()`, removes: its WhiteSpace and LineTerminator characters. */
export const TRIMMED = String.raw`\t\n\v\f\r \u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\ufeff`;

const LABEL = '[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?';

/**
 * The HTML living standard's valid e-mail address, which is what the client's
 * `<input type="email">` enforces: the server refuses what that input would not submit.
 */
export const EMAIL_ADDRESS = new RegExp(`^[a-zA-Z0-9.!#$%&'*+/=?^_\`{|}~-]+@${LABEL}(?:\\.${LABEL})*$`);

/** An address as sent: the server trims it before it checks it. */
export const EMAIL_AS_SENT = `^[${TRIMMED}]*${EMAIL_ADDRESS.source.slice(1, -1)}[${TRIMMED}]*$`;

/** Characters the server drops from a phone number before it checks E.164. */
const PHONE_SEPARATOR = `[${TRIMMED}().-]`;
export const E164_AS_SENT = `^${PHONE_SEPARATOR}*\\+${PHONE_SEPARATOR}*[1-9](?:${PHONE_SEPARATOR}*[0-9]){6,14}${PHONE_SEPARATOR}*$`;

/**
 * A donation amount as text, possibly wrapped in quotes and blanks: decimal dollars from 0.005
 * (which rounds to a cent) to 1,000,000.
 */
export const DOLLARS_AS_SENT = `^[${TRIMMED}"']*(?:0*[1-9][0-9]{0,5}(?:\\.[0-9]*)?|0*1000000(?:\\.0*)?|0*\\.(?:0?[1-9][0-9]*|00[5-9][0-9]*))[${TRIMMED}"']*$`;
