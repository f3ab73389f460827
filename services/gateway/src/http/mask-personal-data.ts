import { type PersonalDataKind, personalDataFields } from '@qrshirt/contracts';

/** "jane@example.com" -> "j***@example.com": enough to tell entries apart, not to write to them. */
export function maskEmail(email: string): string {
  const at = email.lastIndexOf('@');
  return at > 0 ? `${[...email][0]}***${email.slice(at)}` : maskName(email);
}

/** "Jane Doe" -> "J***". */
function maskName(name: string): string {
  const first = [...name.trim()][0];
  return first === undefined ? name : `${first}***`;
}

/** "https://photos.example/a/jane.jpg" -> "https://photos.example/***": whose photo is not shown. */
function maskPhoto(url: string): string {
  return URL.canParse(url) ? `${new URL(url).origin}/***` : maskName(url);
}

/**
 * Anything shaped like a common address, wherever it appears (in a URL, in free text), found from
 * its `@`: the domain by this pattern, then the local part by stepping back over the characters it
 * may hold. Each part is bounded by RFC 5321's lengths (a local part of 64 at most, labels of 63,
 * as many labels as a domain of 255 can hold) and a label cannot hold the dot that separates
 * labels, so the work grows with the length of the text, not its square; and only an `@` starts
 * any, where a pattern starting with the local part would try 64 characters at every position.
 * A longer local part has its last 64 characters masked.
 */
const EMAIL_IN_TEXT = /@[A-Za-z0-9-]{1,63}(?:\.[A-Za-z0-9-]{1,63}){0,126}\.[A-Za-z]{2,63}/g;
const LOCAL_PART_CHAR = /[A-Za-z0-9._%+-]/;
const MAX_LOCAL_PART = 64;

function maskEmailsInText(text: string): string {
  let masked = '';
  let copied = 0;
  for (const match of text.matchAll(EMAIL_IN_TEXT)) {
    const at = match.index;
    let start = at;
    while (start > copied && at - start < MAX_LOCAL_PART && LOCAL_PART_CHAR.test(text[start - 1]!)) start -= 1;
    if (start === at) continue;
    const end = at + match[0].length;
    masked += text.slice(copied, start) + maskEmail(text.slice(start, end));
    copied = end;
  }
  return masked + text.slice(copied);
}

/**
 * The longest string the browser scans for addresses. A longer one (no event field of ours holds
 * one: descriptions stop at 5000) is masked whole rather than cut, since a cut could fall inside
 * an address and leave its first half, unmatched, in clear. `reveal=true` shows it as stored.
 */
export const MAX_SCANNED_LENGTH = 10_000;

const maskedLongText = (text: string) =>
  `[masked: ${text.length} characters, longer than the ${MAX_SCANNED_LENGTH} the browser masks addresses in]`;

/** Every address in a value (strings, arrays and objects, deeply) masked; the rest as it was. */
export function maskEmailsIn(value: unknown): unknown {
  if (typeof value === 'string') {
    if (value.length > MAX_SCANNED_LENGTH) return maskedLongText(value);
    return maskEmailsInText(value);
  }
  if (Array.isArray(value)) return value.map(maskEmailsIn);
  if (typeof value === 'object' && value !== null) {
    return Object.fromEntries(Object.entries(value).map(([key, inner]) => [key, maskEmailsIn(inner)]));
  }
  return value;
}

/**
 * An event's data and metadata as an admin browses them: the names and emails its type is known
 * to hold are masked, and so is any email address elsewhere (in events added since, or in
 * free text), in case the list of personal fields falls behind.
 */
export function maskPersonalData(
  type: string,
  data: unknown,
  metadata: Record<string, unknown>,
): { data: unknown; metadata: Record<string, unknown> } {
  const fields = (personalDataFields as Record<string, Readonly<Record<string, PersonalDataKind>> | undefined>)[type];
  let masked = data;
  if (fields && typeof data === 'object' && data !== null && !Array.isArray(data)) {
    masked = Object.fromEntries(
      Object.entries(data).map(([key, value]) => {
        const kind = fields[key];
        if (kind === undefined || typeof value !== 'string') return [key, value];
        return [key, kind === 'email' ? maskEmail(value) : kind === 'photo' ? maskPhoto(value) : maskName(value)];
      }),
    );
  }
  return { data: maskEmailsIn(masked), metadata: maskEmailsIn(metadata) as Record<string, unknown> };
}
