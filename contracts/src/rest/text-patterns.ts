/**
 * Patterns the OpenAPI document gives for text the server checks in code (where a failure
 * answers with its own message and auth `code`): the document must still say what is accepted.
 * Written in regex syntax that ECMAScript, Python and Rust read alike (`\s` and `\d` differ).
 */

/** What String.prototype.trim, and so zod's `.trim()`, removes: its WhiteSpace and LineTerminator characters. */
export const TRIMMED = String.raw`\t\n\v\f\r \u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\ufeff`;

const LABEL = '[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?';

/** The pattern of text as sent, which the server trims before it checks it against `pattern`. */
export const asSent = (pattern: RegExp): string => `^[${TRIMMED}]*(?:${pattern.source.slice(1, -1)})[${TRIMMED}]*$`;

/** A TCP port, 0 to 65535. */
const PORT = '(?:[0-9]{1,4}|[1-5][0-9]{4}|6[0-4][0-9]{3}|65[0-4][0-9]{2}|655[0-2][0-9]|6553[0-5])';

/**
 * A web address a page may link to: https only, a host of DNS labels whose last one starts with a
 * letter (no IP address, which URL parsers read by other rules; no user or password part, which
 * would hide the real host), an optional port, then printable ASCII. Never `javascript:`, `data:`
 * or `http:`. Everything it matches parses as a URL.
 */
export const HTTPS_ADDRESS = new RegExp(
  `^https://(?:${LABEL}\\.)*[a-zA-Z](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?(?::${PORT})?(?:[/?#][\\x21-\\x7e]*)?$`,
);

/**
 * A path on this site (`/images/logo.svg`). Not `//host` nor `/\host`, which browsers read as
 * another host; no backslash anywhere.
 */
export const SITE_PATH = /^\/[\x21-\x2e\x30-\x5b\x5d-\x7e][\x21-\x5b\x5d-\x7e]*$/;

/** Where a charity's logo may come from: an https address or a path on this site. */
export const LOGO_ADDRESS = new RegExp(`^(?:${HTTPS_ADDRESS.source.slice(1, -1)}|${SITE_PATH.source.slice(1, -1)})$`);

/** A US Employer Identification Number as the IRS writes it: `12-3456789`. */
export const US_EIN = /^[0-9]{2}-[0-9]{7}$/;

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

/**
 * A checkout's amount as text, as `DOLLARS_AS_SENT` reads it: from 0.495 (which rounds to Stripe's
 * least, 50 cents) to 999,999.994 (which rounds to its most, $999,999.99).
 */
export const CHECKOUT_DOLLARS_AS_SENT =
  `^[${TRIMMED}"']*(?:` +
  // 1 to 999,998 and any cents.
  '0*(?:[1-9][0-9]{0,4}|[1-8][0-9]{5}|9[0-8][0-9]{4}|99[0-8][0-9]{3}|999[0-8][0-9]{2}|9999[0-8][0-9]|99999[0-8])(?:\\.[0-9]*)?' +
  // 999,999 and a fraction under .995.
  '|0*999999(?:\\.(?:[0-8][0-9]*|9|9[0-8][0-9]*|99|99[0-4][0-9]*)?)?' +
  // Under a dollar: .495 and up.
  '|0*\\.(?:[5-9][0-9]*|49[5-9][0-9]*)' +
  `)[${TRIMMED}"']*$`;
